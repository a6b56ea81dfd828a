"""Is the indexed compiler source the one the kernel is compiled with? Compares the kernel's
compiler version with the compiler_version of the retrieved chunks of the pass's source."""

from __future__ import annotations

import importlib.metadata
import re
from dataclasses import asdict, dataclass, field

from .ranking import Passage

_VERSION = re.compile(r"\d+\.\d+(?:\.\d+)?")
# The distribution whose version a backend's kernels are compiled with, when none is given.
BACKEND_DISTRIBUTION = {"cuda": "triton", "ascend": "triton-ascend"}


@dataclass
class IndexCheck:
    """`status` is current, stale or unknown; `message` says what to do when not current."""

    status: str
    kernel_version: str = ""
    indexed_versions: list[str] = field(default_factory=list)
    source: str = ""
    message: str = ""

    def to_json(self) -> dict:
        return asdict(self)


def installed_version(backend: str) -> str:
    """The installed compiler's version for a backend ('' when it is not installed here)."""
    try:
        return importlib.metadata.version(BACKEND_DISTRIBUTION.get(backend, "triton"))
    except importlib.metadata.PackageNotFoundError:
        return ""


def numeric(version: str) -> str:
    """'triton-3.6.0+git1' -> '3.6.0'; '' when there is no version number."""
    m = _VERSION.search(version or "")
    return m.group(0) if m else ""


def check_index(passages: list[Passage], kernel_version: str, source: str = "") -> IndexCheck:
    """Compare the kernel's version with the versions its matching source is indexed at."""
    mine = [p for p in passages if not source or p.repo == source] or passages
    indexed = sorted({p.compiler_version for p in mine if p.compiler_version})
    src = source or next(iter(sorted({p.repo for p in mine if p.repo})), "")
    check = IndexCheck("unknown", kernel_version, indexed, src)
    want = numeric(kernel_version)
    if not want:
        check.message = "The kernel's compiler version is not known, so index freshness was not checked."
    elif not indexed:
        check.message = (f"The index records no compiler version for {src or 'these passages'}, so "
                         f"it cannot be checked against the kernel's {kernel_version}.")
    elif want in {numeric(v) for v in indexed}:
        check.status = "current"
    else:
        check.status = "stale"
        check.message = (
            f"The index holds {src or 'the compiler source'} at compiler version "
            f"{', '.join(indexed)} but the kernel is compiled with {kernel_version}, so the cited "
            f"lines may not be the ones that ran; run `passwise refresh` (with `--ref "
            f"{src or 'SOURCE'}=<the tag of {want}>`) to index the matching source.")
    return check
