"""Reads the pass order of pipelines as `PipelineCall`s: the stages of a backend's
compiler.py (binding calls and tool flags, with their `if` conditions) and the C++ pipeline
builders of a tool such as bishengir-compile (`addPass(create*())`, helpers inlined)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from indexer.passes.cpp import unqualified


@dataclass
class PipelineCall:
    """One pass (binding call, flag or C++ create call) in a pipeline, in source order."""

    kind: str  # binding | flag | create
    name: str
    stage: str
    condition: str
    path: str
    line: int
    via: list[str] = field(default_factory=list)


# ---------------------------------------------------------------------------------------------
# Python pipelines (backend compiler.py)


def _dotted(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return f"{base}.{node.attr}" if base else node.attr
    return ""


def _stage_functions(tree: ast.Module) -> list[tuple[str, str]]:
    """[(stage, function name)] in the order `add_stages` registers them; a stage given by
    several functions (e.g. ttgir for gluon) names the later ones `stage/function`."""
    out: list[tuple[str, str]] = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.FunctionDef) and node.name == "add_stages"):
            continue
        assigns = sorted((n for n in ast.walk(node) if isinstance(n, ast.Assign)),
                         key=lambda n: n.lineno)
        for a in assigns:
            t = a.targets[0]
            if not (isinstance(t, ast.Subscript) and isinstance(t.slice, ast.Constant)):
                continue
            calls = [c for c in ast.walk(a.value) if isinstance(c, ast.Call)]
            if calls:
                fn = _dotted(calls[0].func).rsplit(".", 1)[-1]
                stage = str(t.slice.value)
                if any(s == stage for s, _ in out):
                    stage = f"{stage}/{fn}"
                out.append((stage, fn))
    if not out:  # no add_stages: make_ttir, make_ttgir, ... name their stage
        out = [(n.name.removeprefix("make_"), n.name) for n in tree.body
               if isinstance(n, ast.FunctionDef) and n.name.startswith("make_")]
    return out


class _PyPipelineReader:
    """Walks a stage function in source order, tracking the `if` conditions around calls."""

    def __init__(self, text: str, path: str, functions: dict[str, ast.FunctionDef]) -> None:
        self.text, self.path, self.functions = text, path, functions
        self.calls: list[PipelineCall] = []

    def stage(self, stage: str, fn: ast.FunctionDef, via: list[str]) -> None:
        self._block(fn.body, stage, [], via)

    def _block(self, stmts: list[ast.stmt], stage: str, conds: list[str], via: list[str]):
        for s in stmts:
            if isinstance(s, ast.If):
                cond = ast.get_source_segment(self.text, s.test) or ""
                cond = " ".join(cond.split())
                self._block(s.body, stage, conds + [cond], via)
                self._block(s.orelse, stage, conds + [f"not ({cond})"], via)
            elif isinstance(s, (ast.With, ast.For, ast.While, ast.Try)):
                for body in ("body", "orelse", "finalbody"):
                    self._block(getattr(s, body, []) or [], stage, conds, via)
                for h in getattr(s, "handlers", []):
                    self._block(h.body, stage, conds, via)
            elif not isinstance(s, (ast.FunctionDef, ast.ClassDef)):
                self._statement(s, stage, conds, via)

    def _statement(self, s: ast.stmt, stage: str, conds: list[str], via: list[str]) -> None:
        nodes = [n for n in ast.walk(s) if isinstance(n, (ast.Call, ast.Constant, ast.JoinedStr))]
        nodes.sort(key=lambda n: (n.lineno, n.col_offset))
        inside_fstring = {id(v) for n in nodes if isinstance(n, ast.JoinedStr) for v in n.values}
        cond = " and ".join(conds)
        for n in nodes:
            if isinstance(n, ast.Call):
                self._call(n, stage, conds, via)
            elif id(n) not in inside_fstring and (flag := _flag_of(n)):
                self.calls.append(PipelineCall("flag", flag, stage, cond, self.path, n.lineno,
                                               list(via)))

    def _call(self, n: ast.Call, stage: str, conds: list[str], via: list[str]) -> None:
        name = _dotted(n.func)
        short = name.rsplit(".", 1)[-1]
        if short.startswith("add_") and ("passes" in name or n.args):
            self.calls.append(PipelineCall("binding", name, stage, " and ".join(conds),
                                           self.path, n.lineno, list(via)))
        elif short in self.functions and short not in via and len(via) < 4:
            self._block(self.functions[short].body, stage, conds, via + [short])


def _flag_of(n: ast.AST) -> str:
    """`"--triton-to-linalg=..."` or f"--enable-x={v}" -> the flag name, else ""."""
    if isinstance(n, ast.JoinedStr) and n.values and isinstance(n.values[0], ast.Constant):
        n = n.values[0]
    if isinstance(n, ast.Constant) and isinstance(n.value, str):
        m = re.match(r"--([A-Za-z][\w\-]*)", n.value)
        return m.group(1) if m else ""
    return ""


def read_python_pipeline(path: str, text: str) -> list[PipelineCall]:
    """Pass-adding calls and command-line flags of a backend's compiler.py, per stage."""
    tree = ast.parse(text)
    functions = {n.name: n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    reader = _PyPipelineReader(text, path, functions)
    for stage, fn in _stage_functions(tree):
        if fn in functions:
            reader.stage(stage, functions[fn], [])
    return reader.calls



# ---------------------------------------------------------------------------------------------
# C++ pipelines (bishengir-compile's pass pipeline builders)


def _cpp_parser():
    import tree_sitter
    import tree_sitter_cpp

    return tree_sitter.Parser(tree_sitter.Language(tree_sitter_cpp.language()))


def _fn_name(node) -> str:
    decl = node.child_by_field_name("declarator")
    while decl is not None and decl.type not in ("identifier", "qualified_identifier",
                                                 "field_identifier"):
        decl = decl.child_by_field_name("declarator")
    return unqualified(decl.text.decode()) if decl is not None else ""


class _CppPipelineReader:
    """Inlines `build*Pipeline(pm, ...)` helpers and records each `addPass(createX(...))`."""

    def __init__(self, builders: dict[str, list[tuple[str, object]]]) -> None:
        self.builders = builders
        self.calls: list[PipelineCall] = []

    def _pick(self, name: str, near: str) -> tuple[str, object]:
        """A builder of that name, preferring the one in the caller's file (regbase
        variants reuse names)."""
        defs = self.builders[name]
        return next((d for d in defs if d[0] == near), defs[0])

    def run(self, stage: str, name: str, path: str) -> None:
        path, node = self._pick(name, path)
        self._walk(node.child_by_field_name("body"), stage, [], [name], path)

    def _walk(self, node, stage: str, conds: list[str], via: list[str], path: str) -> None:
        if node is None:
            return
        if node.type == "if_statement":
            cond = " ".join(node.child_by_field_name("condition").text.decode().split())
            if cond.startswith("(") and cond.endswith(")"):
                cond = cond[1:-1].strip()
            self._walk(node.child_by_field_name("consequence"), stage, conds + [cond], via, path)
            self._walk(node.child_by_field_name("alternative"), stage, conds + [f"!({cond})"],
                       via, path)
            return
        if node.type == "call_expression" and self._call(node, stage, conds, via, path):
            return
        for child in node.named_children:
            self._walk(child, stage, conds, via, path)

    def _call(self, node, stage: str, conds: list[str], via: list[str], path: str) -> bool:
        fn = node.child_by_field_name("function")
        args = node.child_by_field_name("arguments")
        if fn.type == "field_expression":
            field_ = fn.child_by_field_name("field").text.decode()
            if field_.split("<")[0] in ("addPass", "addNestedPass") and args.named_children:
                inner = args.named_children[0]
                if inner.type == "call_expression":
                    created = inner.child_by_field_name("function").text.decode()
                    created = unqualified(re.sub(r"<.*>", "", created))
                    if created.startswith("create"):  # skip make_unique<...>() and the like
                            self.calls.append(PipelineCall(
                            "create", created, stage, " && ".join(conds), path,
                            node.start_point[0] + 1, list(via)))
                return True
            return False
        name = unqualified(re.sub(r"<.*>", "", fn.text.decode()))
        if name in self.builders and name not in via:
            bpath, bnode = self._pick(name, path)
            self._walk(bnode.child_by_field_name("body"), stage, conds, via + [name], bpath)
            return True
        return False


def read_cpp_pipelines(files: dict[str, str]) -> list[PipelineCall]:
    """The pass order of each tool pipeline (`lib/Tools/<tool>/PassPipeline.cpp` entry
    builders), with the builders they call inlined and their `if` conditions kept."""
    parser = _cpp_parser()
    builders: dict[str, list[tuple[str, object]]] = {}
    entries: list[tuple[str, str, str]] = []
    for path, text in sorted(files.items()):
        if "OpPassManager" not in text or not path.endswith((".cpp", ".cc")):
            continue
        tree = parser.parse(text.encode())
        for node in _function_defs(tree.root_node):
            params = node.child_by_field_name("declarator")
            if params is None or "OpPassManager" not in params.text.decode():
                continue
            name = _fn_name(node)
            builders.setdefault(name, []).append((path, node))
            if "/Tools/" in path and path.endswith("PassPipeline.cpp") and name.startswith("build"):
                tool = path.split("/Tools/", 1)[1].split("/", 1)[0]
                variant = "-regbase" if "/regbase/" in path else ""
                entries.append((f"{tool}{variant}:{name}", name, path))
    called = _called_builders(builders, {p for _, _, p in entries})
    reader = _CppPipelineReader(builders)
    for stage, name, path in entries:
        if (name, path) not in called:
            reader.run(stage, name, path)
    return reader.calls


def _function_defs(root) -> Iterable:
    stack = [root]
    while stack:
        n = stack.pop()
        if n.type == "function_definition":
            yield n
        else:
            stack.extend(reversed(n.named_children))


def _called_builders(builders: dict[str, list[tuple[str, object]]],
                     entry_files: set[str]) -> set[tuple[str, str]]:
    """(name, file) of entry-file builders that another builder of the same file calls:
    those are parts of a pipeline, not pipelines of their own."""
    called = set()
    for name, defs in builders.items():
        for path, node in defs:
            if path not in entry_files:
                continue
            body = node.child_by_field_name("body")
            text = body.text.decode() if body is not None else ""
            called |= {(b, path) for b, bdefs in builders.items() if b != name
                       and any(p == path for p, _ in bdefs) and re.search(rf"\b{b}\s*\(", text)}
    return called

