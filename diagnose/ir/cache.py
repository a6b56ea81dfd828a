"""A capture cache for sweeps: the IR of one (kernel, task, size, backend) is the same whatever
tier 2 or the knowledge base says, so a bench that diagnoses each case under several
configurations captures it once. Opt-in through PASSWISE_CAPTURE_CACHE=DIR; the key includes
the source of diagnose/ir's capturing modules, so a change to the capture code never reads a
stale entry (the modules that only read a capture are left out of it)."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from pathlib import Path

from .model import IRCapture, capture_from_json, to_json

IR_DIR = Path(__file__).resolve().parent


def _key(parts: list[Path | None], size: str, backend: str) -> str:
    digest = hashlib.sha256(f"{size}|{backend}".encode())
    for path in parts:
        for file in sorted(path.rglob("*.py")) if path and path.is_dir() else [path]:
            if file is not None and file.is_file():
                digest.update(file.read_bytes())
    for file in sorted(IR_DIR.glob("*.py")):
        if file.name not in AFTER_CAPTURE:
            digest.update(file.read_bytes())
    return digest.hexdigest()[:32]


# Modules that read a capture and never make one: symptoms are attributed, weighed and turned
# into findings at diagnosis time, so changing them must not discard every cached capture.
AFTER_CAPTURE = frozenset({"symptoms.py", "tier.py", "estimate.py", "cache.py"})


def cached(parts: list[Path | None], size: str, backend: str,
           capture: Callable[[], IRCapture]) -> IRCapture:
    """`capture()`, read from / written to PASSWISE_CAPTURE_CACHE when it is set."""
    folder = os.environ.get("PASSWISE_CAPTURE_CACHE")
    if not folder:
        return capture()
    entry = Path(folder) / f"{_key(parts, size, backend)}.json"
    if entry.is_file():
        return capture_from_json(entry.read_text())
    result = capture()
    entry.parent.mkdir(parents=True, exist_ok=True)
    partial = entry.with_name(f"{entry.name}.{os.getpid()}.tmp")
    partial.write_text(to_json(result))
    os.replace(partial, entry)  # a reader in another process never sees half an entry
    return result
