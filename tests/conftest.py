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


@pytest.fixture(scope="session")
def web_home(tmp_path_factory, embedder):
    """The served home of the web, API and MCP tests (tests/webfixtures.py), built once."""
    from tests.webfixtures import build_home

    return build_home(tmp_path_factory.mktemp("web"), embedder)


@pytest.fixture(scope="session")
def web_server(web_home):
    """The app under waitress on a free loopback port, for every web test module."""
    import threading

    from waitress import create_server

    from web import create_app
    from web.config import WebConfig

    config = WebConfig(home=web_home["home"], corpus_set="default",
                       kernels_dir=web_home["kernels"], job_timeout_s=120)
    server = create_server(create_app(config), host="127.0.0.1", port=0, threads=8)

    def run() -> None:
        try:
            server.run()
        except (OSError, ValueError):  # the socket closed under the loop at teardown
            pass

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    yield {**web_home, "url": f"http://127.0.0.1:{server.effective_port}", "config": config}
    server.close()
