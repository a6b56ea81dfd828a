"""Python chunker (tree-sitter-python): functions, classes, methods and module code;
pass-pipeline builders (a backend's make_ttir, add_stages, ...) are kind "pipeline"."""

from __future__ import annotations

import posixpath
import re

import tree_sitter as ts

from indexer.chunkers.segments import (
    Segment,
    Source,
    body_budget,
    emit,
    merge_siblings,
    tile,
)
from indexer.chunkers.treesitter import cut_rows, node_text, parse, rows
from kb.chunk import Chunk, header

# Classes nested deeper than this are chunked whole (pathological nesting).
MAX_DEPTH = 24
_PASS_CALL = re.compile(r"\bpasses\.(\w+)\.(add_\w+)\s*\(")
_PIPELINE_BODY = re.compile(r"\bpm\.run\(|\bpasses\.\w+\.add_\w+\s*\(")
_STAGE_BUILDER = re.compile(r"^(make_\w+|add_stages)$")


def pass_calls(text: str) -> list[str]:
    """Pass-adding calls such as `passes.ttgpuir.add_coalesce(pm)` -> 'ttgpuir.add_coalesce'."""
    return list(dict.fromkeys(f"{ns}.{fn}" for ns, fn in _PASS_CALL.findall(text)))


class PythonChunker:
    """Walks one parsed module, producing tiled, merged segments."""

    def __init__(self, src: Source, max_chars: int, min_chars: int) -> None:
        self.src = src
        self.max_chars = max_chars
        self.min_chars = min_chars
        self.is_compiler = posixpath.basename(src.path) == "compiler.py"

    def segments(self, root: ts.Node) -> list[Segment]:
        items = self.walk(root.named_children, [], 0)
        items = tile(items, 0, self.src.n - 1, "module")
        return merge_siblings(items, self.src, self.max_chars, self.min_chars)

    def walk(self, nodes: list[ts.Node], scope: list[str], depth: int) -> list[Segment]:
        items: list[Segment] = []
        for node in nodes:
            if node.type == "comment":
                continue  # absorbed by the next item, so a comment stays with its code
            inner = node.child_by_field_name("definition") if node.type == "decorated_definition" else node
            if inner is not None and inner.type == "function_definition":
                items.append(self.function(node, inner, scope))
            elif inner is not None and inner.type == "class_definition":
                items.extend(self.klass(node, inner, scope, depth))
            else:
                items.append(self.glue(node, scope))
        return items

    def glue(self, node: ts.Node, scope: list[str]) -> Segment:
        s, e = rows(node)
        kind, symbol = ("class", scope[-1]) if scope else ("module", "")
        return Segment(s, e, kind, symbol=symbol, scope=".".join(scope),
                       cut_source=self._cuts(node))

    def function(self, node: ts.Node, fn: ts.Node, scope: list[str]) -> Segment:
        name = node_text(fn.child_by_field_name("name")) or "(anonymous)"
        symbol = f"{scope[-1]}.{name}" if scope else name
        kind = "method" if scope else "function"
        if self._is_pipeline(name, node):
            kind = "pipeline"
        s, e = rows(node)
        return Segment(s, e, kind, symbol=symbol, scope=".".join(scope), named=True,
                       names=[symbol], cut_source=self._cuts(fn.child_by_field_name("body") or fn))

    def klass(self, node: ts.Node, cls: ts.Node, scope: list[str], depth: int) -> list[Segment]:
        name = node_text(cls.child_by_field_name("name")) or "(anonymous)"
        body = cls.child_by_field_name("body")
        s, e = rows(node)
        whole = Segment(s, e, "class", symbol=name, scope=".".join(scope), named=True,
                        names=[name], cut_source=self._cuts(body or cls))
        budget = body_budget(self.src, self.max_chars, header(self.src.path, whole.scope, name))
        if body is None or depth >= MAX_DEPTH or self.src.size(s, e) <= budget:
            return [whole]
        inner_scope = scope + [name]
        members = self.walk(body.named_children, inner_scope, depth + 1)
        members = tile(members, s, e, "class", ".".join(inner_scope), name)
        merged = merge_siblings(members, self.src, self.max_chars, self.min_chars)
        for m in merged:
            m.final = True
        return merged

    def _is_pipeline(self, name: str, node: ts.Node) -> bool:
        if self.is_compiler and _STAGE_BUILDER.match(name):
            return True
        s, e = rows(node)
        return _PIPELINE_BODY.search(self.src.body(s, e)) is not None

    def _cuts(self, node: ts.Node):
        return lambda budget: cut_rows(node, budget, self.src.size)


def _tag(chunks: list[Chunk]) -> None:
    for c in chunks:
        calls = pass_calls(c.text)
        if calls:
            c.extra["pass_calls"] = calls
            if c.kind == "module":
                c.kind = "pipeline"


def chunk_python(src: Source, max_chars: int, min_chars: int) -> list[Chunk] | None:
    """Chunks of a Python module, or None when it does not parse at all."""
    root = parse("python", src.text)
    if root.has_error and not any(c.type in ("function_definition", "class_definition",
                                              "decorated_definition") and not c.has_error
                                  for c in root.named_children):
        return None
    segs = PythonChunker(src, max_chars, min_chars).segments(root)
    chunks = [c for seg in segs for c in emit(seg, src, max_chars, "python")]
    _tag(chunks)
    return chunks
