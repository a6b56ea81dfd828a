"""Follow the callees of a hit's deciding lines: the answer is often the helper a pass calls.

A retrieved chunk that matches the question usually matches it on a few lines (the deciding
lines: those holding the most question tokens). When such a line calls a function, the
function's own chunk in the same source is a candidate too: `if (!canBeConvertedToAsyncLoad(..))`
in the loop lowering points at the check that actually decides.
"""

from __future__ import annotations

import re
from collections import defaultdict

import numpy as np

from kb.tokens import tokenize

_CALL = re.compile(r"\b([A-Za-z_][A-Za-z0-9_]*)\s*(?:<[^<>()]{0,80}>)?\s*\(")
# Calls that are syntax, casts or ubiquitous helpers, never the answer.
NOT_CALLEES = frozenset(
    "if for while switch return sizeof static_cast dyn_cast dyn_cast_or_null cast isa "
    "reinterpret_cast const_cast assert llvm_unreachable emitError emitRemark emitOpError "
    "create getType getOperation getContext get size begin end push_back emplace_back "
    "append print str format len range isinstance enumerate zip min max append dict list "
    "set tuple int float bool getDefiningOp getResult getOperand getValue walk".split()
)
DECIDING_LINES = 3
MAX_CALLEES = 4
# A name defined by more chunks than this in one source (a virtual method, an overload set) does
# not point at one function.
MAX_DEFINITIONS = 2


def deciding_lines(text: str, words: set[str], n: int = DECIDING_LINES) -> list[str]:
    """The n lines of `text` sharing the most tokens with the question (at least two)."""
    scored = []
    for line in text.splitlines()[1:]:
        shared = len(words & set(tokenize(line)))
        if shared >= 2:
            scored.append((shared, line))
    scored.sort(key=lambda x: -x[0])
    return [line for _, line in scored[:n]]


def callee_names(lines: list[str]) -> list[str]:
    seen: list[str] = []
    for line in lines:
        for m in _CALL.finditer(line.split("//", 1)[0]):
            name = m.group(1)
            if name not in NOT_CALLEES and len(name) > 3 and name not in seen:
                seen.append(name)
    return seen[:MAX_CALLEES]


class SymbolTable:
    """Symbol name (last `::` part) -> the document indices that define it, per source."""

    def __init__(self, symbols: np.ndarray, sources: np.ndarray, kinds: np.ndarray):
        self._by_name: dict[tuple[str, str], list[int]] = defaultdict(list)
        for i, (sym, src, kind) in enumerate(zip(symbols, sources, kinds, strict=True)):
            if kind not in ("function", "method", "class") or not sym:
                continue
            for s in str(sym).split(", "):
                self._by_name[(str(src), s.rsplit("::", 1)[-1])].append(i)

    def lookup(self, source: str, name: str) -> list[int]:
        """The chunks defining `name` in `source`; none when the name is not one function."""
        found = self._by_name.get((source, name), [])
        return found if len(found) <= MAX_DEFINITIONS else []
