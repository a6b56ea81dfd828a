"""Index math and masks: 32-bit offsets where 64-bit ones were forced, and selects that repeat
what a masked load already did."""

from __future__ import annotations

import ast

from diagnose.proposers import Candidate

from .source import Source, apply, dotted, jit_kernels


def _is_int64_cast(node: ast.AST) -> bool:
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "to" and len(node.args) == 1
            and dotted(node.args[0]) in ("tl.int64", "triton.language.int64"))


def narrow_int64_index(text: str) -> list[Candidate]:
    """Drop `.to(tl.int64)` widenings inside kernels: index math stays 32-bit (verification at
    every size catches a tensor too large for it)."""
    src = Source(text)
    edits = []
    for fn in jit_kernels(src.tree):
        casts = [n for n in ast.walk(fn) if _is_int64_cast(n)]
        outer = [c for c in casts if not any(c is not o and _inside(c, o) for o in casts)]
        for cast in outer:
            edits.append(src.replace(cast, src.segment(cast.func.value)))
    if not edits:
        return []
    return [Candidate(apply(text, edits), f"32-bit index math ({len(edits)} int64 casts removed)",
                      {"casts_removed": len(edits)})]


def _inside(node: ast.AST, outer: ast.AST) -> bool:
    return any(n is node for n in ast.walk(outer))


def _masked_load(value: ast.expr) -> tuple[str, str] | None:
    """(mask text, other text) of `tl.load(..., mask=M, other=V)` (also under `.to(...)`)."""
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "to":
        value = value.func.value
    if isinstance(value, ast.Call) and dotted(value.func) == "tl.load":
        kw = {k.arg: k.value for k in value.keywords}
        if "mask" in kw and "other" in kw:
            return ast.dump(kw["mask"]), ast.dump(kw["other"])
    return None


def drop_redundant_select(text: str) -> list[Candidate]:
    """`x = tl.where(M, x, V)` right after `x = tl.load(..., mask=M, other=V)`: the load already
    filled the masked lanes with V, so the select is removed."""
    src = Source(text)
    edits = []
    for fn in jit_kernels(src.tree):
        for body in _bodies(fn):
            for prev, stmt in zip(body, body[1:], strict=False):
                if _redundant(prev, stmt):
                    edits.append(src.delete_statement(stmt))
    if not edits:
        return []
    return [Candidate(apply(text, edits), f"remove {len(edits)} select(s) the masked load makes redundant",
                      {"selects_removed": len(edits)})]


def _bodies(fn: ast.FunctionDef) -> list[list[ast.stmt]]:
    return [n.body for n in ast.walk(fn) if hasattr(n, "body") and isinstance(n.body, list)]


def _redundant(prev: ast.stmt, stmt: ast.stmt) -> bool:
    if not (isinstance(prev, ast.Assign) and isinstance(stmt, ast.Assign)
            and len(prev.targets) == len(stmt.targets) == 1
            and isinstance(prev.targets[0], ast.Name) and isinstance(stmt.targets[0], ast.Name)
            and prev.targets[0].id == stmt.targets[0].id):
        return False
    load = _masked_load(prev.value)
    where = stmt.value
    if load is None or not (isinstance(where, ast.Call) and dotted(where.func) == "tl.where"
                            and len(where.args) == 3):
        return False
    mask, kept, other = where.args
    return (isinstance(kept, ast.Name) and kept.id == prev.targets[0].id
            and (ast.dump(mask), ast.dump(other)) == load)
