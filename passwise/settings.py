"""Settings: command-line flags over environment variables over defaults. Nothing else reads env."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from kb.errors import KBError
from kb.store import ServerOptions


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
    # A Chroma server: a bearer token (for a proxy in front of `chroma run`), timeouts, retries.
    chroma_token: str | None = field(default_factory=lambda: os.environ.get("PASSWISE_CHROMA_TOKEN") or None)
    chroma_connect_timeout: str | None = field(default_factory=lambda: os.environ.get("PASSWISE_CHROMA_CONNECT_TIMEOUT") or None)
    chroma_read_timeout: str | None = field(default_factory=lambda: os.environ.get("PASSWISE_CHROMA_READ_TIMEOUT") or None)
    chroma_retries: str | None = field(default_factory=lambda: os.environ.get("PASSWISE_CHROMA_RETRIES") or None)
    token: str | None = field(default_factory=lambda: os.environ.get("PASSWISE_TOKEN") or None)
    quiet: bool = False
    json: bool = False

    def server_options(self) -> ServerOptions:
        """How to talk to the Chroma server; a malformed value is one sentence naming it."""
        d = ServerOptions()
        return ServerOptions(
            connect_timeout=_number("PASSWISE_CHROMA_CONNECT_TIMEOUT", self.chroma_connect_timeout, d.connect_timeout),
            read_timeout=_number("PASSWISE_CHROMA_READ_TIMEOUT", self.chroma_read_timeout, d.read_timeout),
            retries=int(_number("PASSWISE_CHROMA_RETRIES", self.chroma_retries, d.retries)),
            token=self.chroma_token)


def _number(name: str, raw: str | None, default: float) -> float:
    if raw is None:
        return default
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if value < 0 or value != value:
        raise KBError(f"{name}={raw!r} is not a number of seconds (or retries) >= 0; fix or unset it.")
    return value
