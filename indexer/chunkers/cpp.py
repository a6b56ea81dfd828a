"""C++ chunker (tree-sitter-cpp): functions, methods, classes; big classes become their
members; pass implementations are tagged with the raw pass names they mention."""

from __future__ import annotations

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
from kb.chunk import header

# Methods that are the heart of a pass or pattern: always a chunk of their own.
ATOMIC_METHODS = frozenset({"matchAndRewrite", "runOnOperation"})
# Nodes whose children sit at the same level as the node itself.
TRANSPARENT = frozenset({
    "preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef",
    "ERROR", "declaration_list",
})
CLASS_TYPES = frozenset({"class_specifier", "struct_specifier", "union_specifier", "enum_specifier"})
# Containers deeper than this are chunked as plain glue (pathological nesting).
MAX_DEPTH = 24
# A file is chunked by line windows instead when parse errors cover more than
# MAX_ERROR_SHARE of it and well-formed definitions less than MIN_CLEAN_SHARE.
MIN_CLEAN_SHARE = 0.3
MAX_ERROR_SHARE = 0.3

_PASS_DEF = re.compile(r"\bGEN_PASS_DEF_(\w+)")
_IMPL_BASE = re.compile(r"\bimpl::(\w+Base)\b")
_CREATE_PASS = re.compile(r"^create\w*Pass$")
_GET_ARGUMENT = re.compile(r"getArgument\s*\(\s*\)[^{;]*\{\s*return\s*\"([\w.\-]+)\"")


def pass_refs(text: str) -> list[str]:
    """Raw pass names a piece of C++ mentions as something it defines or implements."""
    found = _PASS_DEF.findall(text) + _IMPL_BASE.findall(text)
    return list(dict.fromkeys(found))


class CppChunker:
    """Walks one parsed file, producing tiled, merged segments."""

    def __init__(self, src: Source, max_chars: int, min_chars: int) -> None:
        self.src = src
        self.min_chars = min_chars
        self.max_chars = max_chars
        self.class_refs: dict[str, list[str]] = {}
        self.clean_size = 0

    def segments(self, root: ts.Node) -> list[Segment]:
        items = self.walk(root.named_children, [], 0, "")
        items = tile(items, 0, self.src.n - 1, "module")
        return merge_siblings(items, self.src, self.max_chars, self.min_chars)

    def walk(self, nodes: list[ts.Node], scope: list[str], depth: int, cls: str) -> list[Segment]:
        items: list[Segment] = []
        for node in nodes:
            if node.type != "comment":
                items.extend(self.items_for(node, scope, depth, cls))
        return items

    def items_for(self, node: ts.Node, scope: list[str], depth: int, cls: str) -> list[Segment]:
        t = node.type
        if depth > MAX_DEPTH:
            return [self.glue(node, scope, cls)]
        if t == "namespace_definition":
            body = node.child_by_field_name("body")
            name = node_text(node.child_by_field_name("name")) or "(anonymous)"
            if body is None:
                return [self.glue(node, scope, cls)]
            return self.walk(body.named_children, scope + [name], depth + 1, cls)
        if t in TRANSPARENT or t == "linkage_specification":
            return self.walk(node.named_children, scope, depth + 1, cls)
        inner = _definition_in(node)
        if inner is None:
            return [self.glue(node, scope, cls)]
        if inner.type == "function_definition":
            return [self.function(node, inner, scope, cls)]
        return self.klass(node, inner, scope, depth, cls)

    def glue(self, node: ts.Node, scope: list[str], cls: str) -> Segment:
        s, e = rows(node)
        return Segment(s, e, "class" if cls else "module", symbol=cls, scope="::".join(scope),
                       cut_source=self._cuts(node))

    def function(self, node: ts.Node, fn: ts.Node, scope: list[str], cls: str) -> Segment:
        name = _function_name(fn)
        last = name.rsplit("::", 1)[-1]
        if cls:
            symbol, kind = f"{cls}::{name}", "method"
        else:
            owner = name.rsplit("::", 1)[0] if "::" in name else ""
            symbol = name
            # `Foo::bar` is a method of class Foo; `mlir::bar` a function of a namespace.
            kind = "method" if owner.split("::")[-1][:1].isupper() else "function"
        s, e = rows(node)
        if not fn.has_error:
            self.clean_size += self.src.size(s, e)
        extra = {}
        if _CREATE_PASS.match(last):
            extra["pass_refs"] = [last]
        return Segment(s, e, kind, symbol=symbol, scope="::".join(scope), named=True,
                       atomic=last in ATOMIC_METHODS, names=[symbol], extra=extra,
                       cut_source=self._cuts(fn.child_by_field_name("body") or fn))

    def klass(self, node: ts.Node, spec: ts.Node, scope: list[str], depth: int,
              cls: str) -> list[Segment]:
        name = node_text(spec.child_by_field_name("name")) or "(anonymous)"
        body = spec.child_by_field_name("body")
        symbol = f"{cls}::{name}" if cls else name
        s, e = rows(node)
        if not spec.has_error:
            self.clean_size += self.src.size(s, e)
        refs = pass_refs(self._head_text(spec, body))
        if refs:
            self.class_refs[name] = refs
        whole = Segment(s, e, "class", symbol=symbol, scope="::".join(scope), named=True,
                        names=[symbol], cut_source=self._cuts(body or spec))
        fits = self.src.size(s, e) <= body_budget(self.src, self.max_chars,
                                                   header(self.src.path, whole.scope, symbol))
        if body is None or spec.type == "enum_specifier" or (fits and not _has_atomic(body)):
            return [whole]
        members = self.walk(body.named_children, scope + [name], depth + 1, symbol)
        members = tile(members, s, e, "class", "::".join(scope + [name]), symbol)
        merged = merge_siblings(members, self.src, self.max_chars, self.min_chars)
        for m in merged:
            m.final = True
        return merged

    def _head_text(self, spec: ts.Node, body: ts.Node | None) -> str:
        end = body.start_byte if body is not None else spec.end_byte
        raw = spec.text[: end - spec.start_byte] if spec.text is not None else b""
        return raw.decode("utf-8", "replace")

    def _cuts(self, node: ts.Node):
        return lambda budget: cut_rows(node, budget, self.src.size)


def _definition_in(node: ts.Node) -> ts.Node | None:
    """The function or class (with a body) that `node` defines, looking through templates
    and declarations such as `struct X {...};`."""
    for _ in range(4):
        t = node.type
        if t == "function_definition":
            return node
        if t in CLASS_TYPES:
            return node if node.child_by_field_name("body") is not None else None
        if t == "template_declaration":
            defs = [c for c in node.named_children
                    if c.type in ("function_definition", "template_declaration", "declaration")
                    or c.type in CLASS_TYPES]
            if not defs:
                return None
            node = defs[-1]
        elif t in ("declaration", "field_declaration"):
            typ = node.child_by_field_name("type")
            if typ is None or typ.type not in CLASS_TYPES:
                return None
            node = typ
        else:
            return None
    return None


def _function_name(fn: ts.Node) -> str:
    decl = fn.child_by_field_name("declarator")
    for _ in range(8):
        if decl is None or decl.type == "function_declarator":
            break
        decl = decl.child_by_field_name("declarator")
    if decl is None:
        return "(anonymous)"
    return node_text(decl.child_by_field_name("declarator")).replace(" ", "") or "(anonymous)"


def _has_atomic(body: ts.Node) -> bool:
    for child in body.named_children:
        inner = _definition_in(child)
        if inner is not None and inner.type == "function_definition":
            if _function_name(inner).rsplit("::", 1)[-1] in ATOMIC_METHODS:
                return True
    return False


def _attach_pass_refs(chunks: list, class_refs: dict[str, list[str]]) -> None:
    for c in chunks:
        refs = list(c.extra.get("pass_refs", [])) + pass_refs(c.text)
        owner = c.symbol.split(", ")[0].rsplit("::", 1)[0] if "::" in c.symbol else ""
        for cls in (owner.rsplit("::", 1)[-1], c.scope.rsplit("::", 1)[-1]):
            refs += class_refs.get(cls, [])
        if refs:
            c.extra["pass_refs"] = list(dict.fromkeys(refs))
        arg = _GET_ARGUMENT.findall(c.text)
        if arg:
            c.passes = list(dict.fromkeys(c.passes + arg))


def _error_bytes(root: ts.Node) -> int:
    """Bytes inside ERROR nodes; only subtrees that contain an error are visited."""
    total, stack = 0, [root]
    while stack:
        node = stack.pop()
        if node.is_error:
            total += node.end_byte - node.start_byte
        elif node.has_error:
            stack.extend(node.children)
    return total


def chunk_cpp(src: Source, max_chars: int, min_chars: int) -> list | None:
    """Chunks of a C++ file, or None when it parses too badly to trust the tree."""
    root = parse("cpp", src.text)
    chunker = CppChunker(src, max_chars, min_chars)
    segs = chunker.segments(root)
    if root.has_error:
        total = max(src.size(0, src.n - 1), 1) if src.n else 1
        if (chunker.clean_size / total < MIN_CLEAN_SHARE
                and _error_bytes(root) > MAX_ERROR_SHARE * len(src.text)):
            return None
    chunks = [c for seg in segs for c in emit(seg, src, max_chars, "cpp")]
    _attach_pass_refs(chunks, chunker.class_refs)
    return chunks
