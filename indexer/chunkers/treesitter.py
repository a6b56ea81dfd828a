"""Shared tree-sitter plumbing: cached parsers, row ranges and split cuts of big nodes."""

from __future__ import annotations

from functools import cache

import tree_sitter as ts

# Below this depth a node's children are not explored for cuts: deep nesting then falls
# back to plain line packing instead of recursing without bound.
MAX_CUT_DEPTH = 8


@cache
def parser(language: str) -> ts.Parser:
    if language == "cpp":
        import tree_sitter_cpp as grammar
    else:
        import tree_sitter_python as grammar
    return ts.Parser(ts.Language(grammar.language()))


def parse(language: str, text: str) -> ts.Node:
    return parser(language).parse(text.encode("utf-8", "surrogatepass")).root_node


def rows(node: ts.Node) -> tuple[int, int]:
    """First and last row a node occupies (a node ending at column 0 ends on the row before)."""
    s, e = node.start_point.row, node.end_point.row
    if node.end_point.column == 0 and e > s:
        e -= 1
    return s, e


def node_text(node: ts.Node | None) -> str:
    if node is None or node.text is None:
        return ""
    return " ".join(node.text.decode("utf-8", "replace").split())


def cut_rows(node: ts.Node, budget: int, row_size, depth: int = 0) -> list[int]:
    """Rows where children of `node` start (skipping ones glued to a comment above),
    descending into children that are themselves larger than the budget."""
    out: list[int] = []
    prev: ts.Node | None = None
    for child in node.named_children:
        s, e = rows(child)
        glued = prev is not None and prev.type == "comment" and rows(prev)[1] == s - 1
        if not glued:
            out.append(s)
        if e > s and depth < MAX_CUT_DEPTH and row_size(s, e) > budget:
            out.extend(cut_rows(child, budget, row_size, depth + 1))
        if child.type != "comment":
            out.append(e + 1)
        prev = child
    return out
