"""Source edits located by the AST: find nodes with `ast`, replace exactly their text, so the rest
of the file (comments, layout) stays as the user wrote it and the diff shows only the change."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass


@dataclass
class Edit:
    start: int  # character offsets into the source
    end: int
    text: str


class Source:
    """A parsed kernel file with offset lookup for nodes."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.tree = ast.parse(text)
        self._line_starts = [0]
        for line in text.splitlines(keepends=True):
            self._line_starts.append(self._line_starts[-1] + len(line))

    def _offset(self, lineno: int, col_bytes: int) -> int:
        line_start = self._line_starts[lineno - 1]
        line = self.text[line_start:self._line_starts[lineno]]
        return line_start + len(line.encode("utf-8")[:col_bytes].decode("utf-8", "replace"))

    def span(self, node: ast.AST) -> tuple[int, int]:
        return (self._offset(node.lineno, node.col_offset),
                self._offset(node.end_lineno, node.end_col_offset))

    def segment(self, node: ast.AST) -> str:
        start, end = self.span(node)
        return self.text[start:end]

    def replace(self, node: ast.AST, text: str) -> Edit:
        return Edit(*self.span(node), text)

    def line_start(self, lineno: int) -> int:
        return self._line_starts[lineno - 1]

    def delete_statement(self, node: ast.stmt) -> Edit:
        """The statement's whole lines, when it is alone on them."""
        start = self._line_starts[node.lineno - 1]
        end = self._line_starts[node.end_lineno]
        return Edit(start, end, "")


def apply(text: str, edits: list[Edit]) -> str:
    """Apply non-overlapping edits; the result must still parse (a bug here is ours, not the user's)."""
    out = text
    for e in sorted(edits, key=lambda e: e.start, reverse=True):
        out = out[:e.start] + e.text + out[e.end:]
    ast.parse(out)
    return out


def dotted(node: ast.AST) -> str:
    """'tl.load' for Attribute(Name('tl'), 'load'); '' for anything else."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = dotted(node.value)
        return f"{base}.{node.attr}" if base else ""
    return ""


def is_jit_decorator(node: ast.expr) -> bool:
    target = node.func if isinstance(node, ast.Call) else node
    return dotted(target) in ("triton.jit", "jit")


def jit_kernels(tree: ast.Module) -> list[ast.FunctionDef]:
    return [f for f in tree.body if isinstance(f, ast.FunctionDef)
            and any(is_jit_decorator(d) for d in f.decorator_list)]


def host_functions(tree: ast.Module) -> list[ast.FunctionDef]:
    return [f for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)
            and not any(is_jit_decorator(d) or "autotune" in dotted(getattr(d, "func", d))
                        or "heuristics" in dotted(getattr(d, "func", d)) for d in f.decorator_list)]


@dataclass
class Launch:
    """`kernel[grid](args..., KEY=value)` inside a host function."""

    call: ast.Call
    kernel: str
    grid: ast.expr
    function: ast.FunctionDef


def launches(tree: ast.Module) -> list[Launch]:
    kernels = {k.name for k in jit_kernels(tree)} | _autotuned(tree)
    out = []
    for fn in host_functions(tree):
        for node in ast.walk(fn):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Subscript)
                    and isinstance(node.func.value, ast.Name) and node.func.value.id in kernels):
                out.append(Launch(node, node.func.value.id, node.func.slice, fn))
    return out


def _autotuned(tree: ast.Module) -> set[str]:
    return {f.name for f in tree.body if isinstance(f, ast.FunctionDef)
            and any("autotune" in dotted(getattr(d, "func", d)) for d in f.decorator_list)}


def keyword(call: ast.Call, name: str) -> ast.keyword | None:
    return next((k for k in call.keywords if k.arg == name), None)


def int_value(node: ast.AST | None) -> int | None:
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    return None


def calls_named(node: ast.AST, name: str) -> Iterator[ast.Call]:
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call) and dotted(sub.func) == name:
            yield sub


def grid_nodes(launch: Launch) -> list[ast.AST]:
    """The grid expression, and the right-hand side of `grid = ...` when the grid is a name."""
    nodes: list[ast.AST] = [launch.grid]
    if isinstance(launch.grid, ast.Name):
        for node in ast.walk(launch.function):
            if (isinstance(node, ast.Assign) and len(node.targets) == 1
                    and isinstance(node.targets[0], ast.Name)
                    and node.targets[0].id == launch.grid.id):
                nodes.append(node.value)
    return nodes
