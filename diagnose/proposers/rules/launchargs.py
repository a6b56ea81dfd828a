"""What a launch passes to each kernel parameter, and kernel expressions rewritten in the host's
terms: the bridge the grid rewrites need between a kernel's names and its launcher's."""

from __future__ import annotations

import ast

from .source import Launch, Source, dotted


def kernel_params(fn: ast.FunctionDef) -> list[str]:
    return [a.arg for a in fn.args.args]


def is_constexpr(arg: ast.arg) -> bool:
    return arg.annotation is not None and "constexpr" in dotted(arg.annotation)


def bound_args(launch: Launch, fn: ast.FunctionDef) -> dict[str, ast.expr] | None:
    """Kernel parameter -> the launch's argument expression; None when the call cannot be mapped
    (a starred argument, more arguments than parameters)."""
    params = kernel_params(fn)
    call = launch.call
    if any(isinstance(a, ast.Starred) for a in call.args) or len(call.args) > len(params):
        return None
    out = dict(zip(params, call.args, strict=False))
    for kw in call.keywords:
        if kw.arg is None:
            return None
        if kw.arg in params:
            out[kw.arg] = kw.value
    return out


def host_text(src: Source, expr: ast.expr, args: dict[str, ast.expr]) -> str | None:
    """A kernel expression of parameters, literals, arithmetic and tl.cdiv, written with the
    launch's arguments (tl.cdiv as triton.cdiv); None when it names anything else."""
    cdivs = [n for n in ast.walk(expr) if isinstance(n, ast.Call)]
    if any(dotted(c.func) != "tl.cdiv" or len(c.args) != 2 or c.keywords for c in cdivs):
        return None
    inner = {id(n) for c in cdivs for n in ast.walk(c.func)}
    allowed = (ast.Name, ast.Constant, ast.BinOp, ast.UnaryOp, ast.operator, ast.unaryop, ast.Load, ast.Call)
    if not all(isinstance(n, allowed) or id(n) in inner for n in ast.walk(expr)):
        return None
    if any(isinstance(n, ast.Name) and id(n) not in inner and n.id not in args for n in ast.walk(expr)):
        return None

    class Host(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.expr:
            return ast.parse(src.segment(args[node.id]), mode="eval").body

        def visit_Call(self, node: ast.Call) -> ast.expr:
            node.args = [self.visit(a) for a in node.args]
            node.func = ast.parse("triton.cdiv", mode="eval").body
            return node

    return ast.unparse(Host().visit(ast.parse(ast.unparse(expr), mode="eval")))


def assigned_once(fn: ast.FunctionDef, name: str) -> ast.Assign | None:
    """The only `name = ...` statement of a host function (None if there are several or none)."""
    found = [n for n in ast.walk(fn) if isinstance(n, ast.Assign | ast.AugAssign | ast.AnnAssign)
             and any(isinstance(t, ast.Name) and t.id == name for t in _targets(n))]
    return found[0] if len(found) == 1 and isinstance(found[0], ast.Assign) else None


def _targets(node: ast.AST) -> list[ast.expr]:
    if isinstance(node, ast.Assign):
        out = []
        for t in node.targets:
            out += list(t.elts) if isinstance(t, ast.Tuple) else [t]
        return out
    return [node.target]


def name_loads(fn: ast.AST, name: str) -> list[ast.Name]:
    return [n for n in ast.walk(fn) if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)]


def grid_tuple(launch: Launch) -> tuple[ast.Tuple, ast.Assign | None] | None:
    """The launch's grid as a tuple literal, inline or bound once to the name it passes (with that
    assignment); None for a lambda, a call or a name bound more than once."""
    if isinstance(launch.grid, ast.Tuple):
        return launch.grid, None
    if isinstance(launch.grid, ast.Name):
        stmt = assigned_once(launch.function, launch.grid.id)
        if stmt is not None and len(stmt.targets) == 1 and isinstance(stmt.value, ast.Tuple):
            return stmt.value, stmt
    return None


def literal_of(launch: Launch, expr: ast.expr | None) -> tuple[int, ast.expr] | None:
    """(value, the literal to edit) of a launch value that is an int literal, or a host local
    bound once to one (`BLOCK = 128`, `bm, bn, bk = 32, 32, 32`): editing the literal where the
    name is bound keeps every reader of the name (the grid too) consistent."""
    if expr is None:
        return None
    value = _int(expr)
    if value is not None:
        return value, expr
    if not isinstance(expr, ast.Name):
        return None
    found = [n for n in ast.walk(launch.function) if isinstance(n, ast.Assign | ast.AugAssign | ast.AnnAssign)
             and any(isinstance(t, ast.Name) and t.id == expr.id for t in _targets(n))]
    if len(found) != 1 or not isinstance(found[0], ast.Assign) or len(found[0].targets) != 1:
        return None
    stmt = found[0]
    target, bound = stmt.targets[0], stmt.value
    if isinstance(target, ast.Tuple) and isinstance(bound, ast.Tuple) and len(target.elts) == len(bound.elts):
        pos = next(i for i, t in enumerate(target.elts) if isinstance(t, ast.Name) and t.id == expr.id)
        bound = bound.elts[pos]
    elif not isinstance(target, ast.Name):
        return None
    value = _int(bound)
    return (value, bound) if value is not None else None


def _int(node: ast.AST) -> int | None:
    return node.value if isinstance(node, ast.Constant) and type(node.value) is int else None
