"""Shared fixtures: a real embedder (loaded once), fixture git repositories built by the tests."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def embedder():
    from kb.embed import Embedder

    e = Embedder()
    e.embed(["warm up"])  # load once for the whole session
    return e
