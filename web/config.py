"""What a served passwise knows: where the index lives, who may call it, and its limits."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

LOOPBACK = ("127.0.0.1", "::1", "localhost")


@dataclass
class WebConfig:
    """Configuration passed to `create_app`; nothing in web/ reads the environment."""

    home: Path
    chroma_url: str | None = None
    corpus_set: str = "main"
    model: str | None = None
    # Required when listening beyond loopback; checked on every request when set.
    token: str | None = None
    # Secret for CSRF tokens; a fresh random one per process when not given.
    secret_key: str | None = None
    max_body_bytes: int = 256 * 1024
    per_page: int = 10
    max_page: int = 20
    # Processes that rank new questions (web/search_pool.py); 0 ranks in the serving process.
    search_workers: int = 0
    # Diagnose jobs: the interpreter that runs `-m passwise diagnose`, its timeout and queue.
    python: str = field(default_factory=lambda: sys.executable)
    job_timeout_s: float = 300.0
    job_workers: int = 1
    job_queue: int = 4
    runs_dir: Path | None = None
    kernels_dir: Path | None = None
    extra_env: dict[str, str] = field(default_factory=dict)
    mirrors: list[str] = field(default_factory=list)  # URL=PATH, as `passwise index --mirror`

    @property
    def runs(self) -> Path:
        return self.runs_dir or Path(self.home) / "runs"


def is_loopback(host: str) -> bool:
    return host in LOOPBACK or host.startswith("127.")
