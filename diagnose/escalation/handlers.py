"""From a construct the kernel's facts show to the analysis code that handles it.

An analysis dispatches on IR op classes (`dyn_cast<arith::RemSIOp>(op)` followed by
`parseBinaryOp(...)`, `visitors.append<CmpOpAxisInfoVisitor<arith::CmpIOp>>()`); the lines that
name the kernel's ops therefore lead to the handler whose body decides how this kernel's
offsets or mask are classified. Those definitions are searched by name and pooled with
provenance `handler`.
"""

from __future__ import annotations

import fnmatch
import re

from kb.chunk import Chunk
from kb.search import Filters, KnowledgeBase

from .ranking import Candidate
from .symptoms import KernelQuestion

_CALLED = re.compile(r"(?<![\w.>:])([A-Za-z_]\w{4,})\s*\(")  # a free function call
_INSTANTIATED = re.compile(r"(?<![\w.>:])([A-Z]\w{4,})\s*<")  # a class template instance
_NOT_HANDLERS = frozenset({"failed", "succeeded", "static_cast", "dyn_cast", "isa", "cast",
                           "dyn_cast_or_null", "llvm", "assert", "return", "sizeof", "while",
                           "switch", "SmallVector", "ArrayRef", "DenseMap", "TypedValue"})
MAX_BODY_LINES = 3  # an `if (... dyn_cast<Op> ...) {` branch: its handler call is in the body
MAX_HANDLERS = 4


def _own_names(chunk: Chunk) -> set[str]:
    return {part.strip() for sym in chunk.symbol.split(",") for part in sym.split("::")}


def _branch(lines: list[str], i: int) -> str:
    """The line naming the op, and the body of the block it opens (up to its closing brace)."""
    code = lines[i].split("//", 1)[0]
    if not code.rstrip().endswith("{"):
        return code
    body = []
    for nxt in lines[i + 1 : i + 1 + MAX_BODY_LINES]:
        if nxt.strip().startswith("}"):
            break
        body.append(nxt.split("//", 1)[0])
    return " ".join([code, *body])


def handler_names(chunk: Chunk, ops: list[str]) -> list[str]:
    """Functions called or class templates instantiated where the chunk dispatches on `ops`
    (not casts, not the chunk's own function)."""
    if not ops:
        return []
    op_rx = re.compile(rf"(?<![\w])(?:\w+::)*(?:{'|'.join(map(re.escape, ops))})(?!\w)")
    lines = chunk.text.split("\n")[1:]  # line 0 is the chunk header
    own, names = _own_names(chunk), []
    for i, line in enumerate(lines):
        if not op_rx.search(line.split("//", 1)[0]):
            continue
        text = _branch(lines, i)
        for name in _INSTANTIATED.findall(text) + _CALLED.findall(text):
            if name not in _NOT_HANDLERS and name not in own and name not in ops and name not in names:
                names.append(name)
    return names


def _in_paths(chunk: Chunk, globs: list[str]) -> bool:
    return any(fnmatch.fnmatch(chunk.path, g) for g in globs)


def _files_under(pool: list[Candidate], globs: list[str]) -> list[tuple[str, str]]:
    """(source, path) of the pooled files under the globs: the analysis files to read whole."""
    return list(dict.fromkeys((c.chunk.source, c.chunk.path) for c in pool
                              if _in_paths(c.chunk, globs)))


def dispatch_handlers(kb: KnowledgeBase, kq: KernelQuestion, pool: list[Candidate]) -> dict[str, str]:
    """handler name -> source, over every chunk of the analysis files the searches reached (the
    dispatch itself, a constructor's visitor list or an if-else chain, rarely ranks high)."""
    names: dict[str, str] = {}
    for source, path in _files_under(pool, kq.paths):
        for _, chunk in sorted(kb.store.get(kb.store.ids_where({"path": path})),
                               key=lambda ic: ic[1].start_line):
            if chunk.source == source:
                for name in handler_names(chunk, kq.ops):
                    names.setdefault(name, source)
    return names


def follow_handlers(kb: KnowledgeBase, kernel: list[KernelQuestion], pool: list[Candidate],
                    backend: str, depth: int, weight: float) -> list[Candidate]:
    """Add the definitions of the handlers that the analysis files under each kernel question's
    paths dispatch its ops to (provenance `handler`, found_by `handler:<question>:<name>`)."""
    by_id = {c.id: c for c in pool}
    for kq in kernel:
        for name, repo in list(dispatch_handlers(kb, kq, pool).items())[:MAX_HANDLERS]:
            query = f"{name} {' '.join(kq.ops)} {' '.join(kq.focus)}"
            for hit in kb.search(query, k=depth, filters=Filters(backend=backend, repo=repo or None)):
                if name not in _own_names(hit.chunk) or hit.chunk.kind not in ("function", "method", "class"):
                    continue
                cand = by_id.setdefault(hit.id, Candidate(hit.id, hit.chunk))
                cand.add(f"handler:{kq.name}:{name}", "handler", weight, hit.score)
    return list(by_id.values())
