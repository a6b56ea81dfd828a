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
                           "switch", "SmallVector", "ArrayRef", "DenseMap", "TypedValue",
                           "constexpr"})
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
    return dispatch_sites(chunk, ops)[0]


def dispatch_sites(chunk: Chunk, ops: list[str]) -> tuple[list[str], bool]:
    """(handler names, whether the chunk handles an op itself): a branch on one of `ops` that
    calls or instantiates a handler names it; a branch that calls none (`if (isa<DotOpInterface>
    (op)) { ... continue; }`, `if constexpr (is_same_v<OpTy, arith::MinSIOp>)`) is handled by the
    chunk's own function, which then decides too."""
    if not ops:
        return [], False
    op_rx = re.compile(rf"(?<![\w])(?:\w+::)*(?:{'|'.join(map(re.escape, ops))})(?!\w)")
    lines = chunk.text.split("\n")[1:]  # line 0 is the chunk header
    own, names, itself = _own_names(chunk), [], False
    for i, line in enumerate(lines):
        if not op_rx.search(line.split("//", 1)[0]):
            continue
        text = _branch(lines, i)
        found = [n for n in _INSTANTIATED.findall(text) + _CALLED.findall(text)
                 if n not in _NOT_HANDLERS and n not in own and n not in ops]
        itself = itself or (not found and chunk.kind in ("function", "method"))
        names += [n for n in found if n not in names]
    return names, itself


def _in_paths(chunk: Chunk, globs: list[str]) -> bool:
    return any(fnmatch.fnmatch(chunk.path, g) for g in globs)


def _files_under(pool: list[Candidate], globs: list[str]) -> list[tuple[str, str]]:
    """(source, path) of the pooled files under the globs: the analysis files to read whole."""
    return list(dict.fromkeys((c.chunk.source, c.chunk.path) for c in pool
                              if _in_paths(c.chunk, globs)))


def dispatch_handlers(kb: KnowledgeBase, kq: KernelQuestion, pool: list[Candidate]
                      ) -> tuple[dict[str, str], list[tuple[str, Chunk]]]:
    """(handler name -> source, chunks that handle an op themselves), over every chunk of the
    analysis files the searches reached (the dispatch itself, a constructor's visitor list or
    an if-else chain, rarely ranks high)."""
    names: dict[str, str] = {}
    itself: list[tuple[str, Chunk]] = []
    for source, path in _files_under(pool, kq.paths):
        for cid, chunk in sorted(kb.store.get(kb.store.ids_where({"path": path})),
                                 key=lambda ic: ic[1].start_line):
            if chunk.source == source:
                found, own = dispatch_sites(chunk, kq.ops)
                for name in found:
                    names.setdefault(name, source)
                if own:
                    itself.append((cid, chunk))
    return names, itself


def follow_handlers(kb: KnowledgeBase, kernel: list[KernelQuestion], pool: list[Candidate],
                    backend: str, depth: int, weight: float) -> list[Candidate]:
    """Add the definitions of the handlers that the analysis files under each kernel question's
    paths dispatch its ops to (provenance `handler`, found_by `handler:<question>:<name>`)."""
    by_id = {c.id: c for c in pool}
    for kq in kernel:
        names, itself = dispatch_handlers(kb, kq, pool)
        for cid, chunk in itself[:MAX_HANDLERS]:
            name = chunk.symbol.split("::")[-1] or chunk.path
            cand = by_id.setdefault(cid, Candidate(cid, chunk))
            cand.add(f"handler:{kq.name}:{name}", "handler", weight, 0.0)  # found by dispatch, not search
        for name, repo in list(names.items())[:MAX_HANDLERS]:
            query = f"{name} {' '.join(kq.ops)} {' '.join(kq.focus)}"
            for hit in kb.search(query, k=depth, filters=Filters(backend=backend, repo=repo or None)):
                if name not in _own_names(hit.chunk) or hit.chunk.kind not in ("function", "method", "class"):
                    continue
                cand = by_id.setdefault(hit.id, Candidate(hit.id, hit.chunk))
                cand.add(f"handler:{kq.name}:{name}", "handler", weight, hit.score)
    return list(by_id.values())
