"""Source lines of PTX memory instructions: Triton's PTX carries `.loc FILE LINE COL`
directives, so every global load, store or atomic can be pinned to the kernel line it came from."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

FILE = re.compile(r'^\s*\.file\s+(\d+)\s+"([^"]+)"', re.M)
LOC = re.compile(r"^\s*\.loc\s+(\d+)\s+(\d+)\s+\d+")
ACCESS = re.compile(r"\b(ld|st)\.global((?:\.[a-z0-9_:]+)*?)(?:\.v(\d))?\.([bsuf])(\d+)\b")
ATOMIC = re.compile(r"\b(atom|red)\.global((?:\.[a-z0-9_]+)*)")


@dataclass
class PtxAccess:
    """One global memory instruction: kind (ld, st, atom, red), width in bits, source line."""

    kind: str
    bits: int
    line: int | None
    text: str


def accesses_by_line(ptx: str, source_file: str = "") -> list[PtxAccess]:
    """Global accesses in program order, each with the kernel-file line of the `.loc` before
    it; lines from other files (triton/language/standard.py) count as None."""
    files = {fid: path for fid, path in FILE.findall(ptx)}
    ours = {fid for fid, path in files.items() if _same_file(path, source_file)}
    current: int | None = None
    found = []
    for raw in ptx.splitlines():
        loc = LOC.match(raw)
        if loc:
            current = int(loc.group(2)) if not ours or loc.group(1) in ours else None
            continue
        access = ACCESS.search(raw)
        if access:
            bits = int(access.group(5)) * int(access.group(3) or 1)
            found.append(PtxAccess(access.group(1), bits, current, raw.strip()[:200]))
            continue
        atomic = ATOMIC.search(raw)
        if atomic:
            found.append(PtxAccess(atomic.group(1), 0, current, raw.strip()[:200]))
    return found


def _same_file(path: str, source_file: str) -> bool:
    if not source_file:
        return True
    return Path(path).name == Path(source_file).name and (
        Path(path).resolve() == Path(source_file).resolve() or not Path(source_file).is_absolute())
