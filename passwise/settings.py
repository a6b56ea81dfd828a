"""Settings: command-line flags over environment variables over defaults. Nothing else reads env."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path


def _default_home() -> Path:
    return Path(os.environ.get("PASSWISE_HOME") or Path.home() / ".passwise").expanduser()


@dataclass
class Settings:
    home: Path = field(default_factory=_default_home)
    chroma_url: str | None = field(default_factory=lambda: os.environ.get("PASSWISE_CHROMA_URL") or None)
    corpus_set: str = field(default_factory=lambda: os.environ.get("PASSWISE_CORPUS_SET", "main"))
    model: str | None = field(default_factory=lambda: os.environ.get("PASSWISE_EMBED_MODEL") or None)
    mirrors: list[str] = field(default_factory=list)
    # One interpreter per backend: triton and triton-ascend both install the module `triton`.
    python_cuda: str | None = field(default_factory=lambda: os.environ.get("PASSWISE_CUDA_PYTHON") or None)
    python_ascend: str | None = field(default_factory=lambda: os.environ.get("PASSWISE_ASCEND_PYTHON") or None)
    llm_base_url: str | None = field(default_factory=lambda: os.environ.get("PASSWISE_LLM_BASE_URL") or os.environ.get("OPENAI_BASE_URL") or None)
    llm_model: str | None = field(default_factory=lambda: os.environ.get("PASSWISE_LLM_MODEL") or None)
    llm_api_key: str | None = field(default_factory=lambda: os.environ.get("PASSWISE_LLM_API_KEY") or os.environ.get("OPENAI_API_KEY") or None)
    token: str | None = field(default_factory=lambda: os.environ.get("PASSWISE_TOKEN") or None)
    quiet: bool = False
    json: bool = False
