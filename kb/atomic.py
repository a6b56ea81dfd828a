"""Atomic file replacement: a reader sees the old file or the new one, never a torn one.

Every writer gets its own temporary name, so parallel writers of one file never collide; the
last `os.replace` wins and each replacement is whole.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO

STALE_TEMP_SECONDS = 3600


def replace_atomically(path: Path, write: Callable[[IO[bytes]], None]) -> None:
    """Write `path` through `write(file)` into a unique temporary file, then rename it over."""
    path.parent.mkdir(parents=True, exist_ok=True)
    _sweep_stale_temps(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(fd, _mode_for(path))  # mkstemp makes 0600; keep the file's (or umask's) mode
        with os.fdopen(fd, "wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write_text_atomically(path: Path, text: str) -> None:
    replace_atomically(path, lambda f: f.write(text.encode("utf-8")))


def _mode_for(path: Path) -> int:
    try:
        return path.stat().st_mode & 0o777
    except OSError:
        pass
    try:
        with open("/proc/self/status") as f:  # the umask, read without changing it
            for line in f:
                if line.startswith("Umask:"):
                    return 0o666 & ~int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    return 0o644


def _sweep_stale_temps(path: Path) -> None:
    """Temporary files a killed writer left behind (an hour old: no live writer is that slow)."""
    cutoff = time.time() - STALE_TEMP_SECONDS
    for tmp in path.parent.glob(f".{path.name}.*.tmp"):
        with contextlib.suppress(OSError):
            if tmp.stat().st_mtime < cutoff:
                tmp.unlink()
