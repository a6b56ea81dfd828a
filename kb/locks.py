"""The writer lock: one `index` or `refresh` at a time per knowledge base; readers never wait.

A file lock (flock) under PASSWISE_HOME/locks, one per collection and store (embedded or a
server URL). The kernel drops it when its holder dies, even by kill -9, so a killed writer
never blocks the next one. It serialises writers that share a home; writers on other
machines pointed at the same Chroma server must take turns by arrangement (docs/kb.md).
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import socket
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

_held: dict[str, tuple[int, int]] = {}  # lock path -> (fd, depth): re-entrant in one process


def lock_path(home: Path, collection: str, where: str) -> Path:
    tag = hashlib.sha1(where.encode()).hexdigest()[:8]
    return Path(home) / "locks" / f"{collection}-{tag}.lock"


def _stderr(msg: str) -> None:
    print(f"passwise: {msg}", file=sys.stderr, flush=True)


@contextmanager
def write_lock(path: Path, what: str, say: Callable[[str], None] = _stderr) -> Iterator[None]:
    """Hold the writer lock at `path`; if another writer has it, say so once and wait."""
    key = str(path)
    if key in _held:
        fd, depth = _held[key]
        _held[key] = (fd, depth + 1)
        try:
            yield
        finally:
            _held[key] = (fd, _held[key][1] - 1)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o664)
    try:
        _acquire(fd, path, say)
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"`passwise {what}` (pid {os.getpid()} on {socket.gethostname()}, "
                      f"since {time.strftime('%H:%M:%S')})".encode(), 0)
        _held[key] = (fd, 1)
        try:
            yield
        finally:
            del _held[key]
            os.ftruncate(fd, 0)
    finally:
        os.close(fd)  # closing the descriptor releases the lock


def _acquire(fd: int, path: Path, say: Callable[[str], None]) -> None:
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return
    except BlockingIOError:
        pass
    holder = os.pread(fd, 400, 0).decode("utf-8", "replace").strip() or "another writer"
    say(f"waiting for {holder} to finish writing this knowledge base (lock {path}); "
        "Ctrl-C stops waiting and changes nothing.")
    fcntl.flock(fd, fcntl.LOCK_EX)


def writer_running(path: Path) -> str | None:
    """Who holds the writer lock now (a phrase), or None when no writer runs on this home."""
    if str(path) in _held:
        return "this process"
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        fcntl.flock(fd, fcntl.LOCK_UN)
        return None
    except BlockingIOError:
        return os.pread(fd, 400, 0).decode("utf-8", "replace").strip() or "another writer"
    finally:
        os.close(fd)
