"""Builds the pass registry from a compiler source tree: TableGen pass defs, the C++ that
implements them, the pybind bindings that expose them, and the backend pipelines that run them.

Four readers feed one assembly step (`build_registry`):
  TableGen `Passes.td`  -> `TdPass`      (argument, def name, summary, options, lines)
  C++ sources           -> `CppLinks`    (GEN_PASS_DEF, *Base subclasses, create functions)
  pybind sources        -> `Binding`     (python name -> create function)
  pipelines             -> `PipelineCall` (backend compiler.py and C++ pipeline builders)
"""

from __future__ import annotations

import ast
import bisect
import re
import textwrap
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from kb.errors import KBError
from kb.passes import (
    ImplAnchor,
    PassOption,
    PassRecord,
    PassRegistry,
    PipelineFlag,
    PipelinePosition,
)

CPP_EXTS = (".cpp", ".cc", ".cxx", ".h", ".hpp")

# Passes that come from upstream MLIR, which a Triton tree uses but does not define:
# create function -> (def name, argument). Facts of MLIR's own Passes.td files.
MLIR_UPSTREAM = {
    "createCanonicalizerPass": ("Canonicalizer", "canonicalize"),
    "createCSEPass": ("CSE", "cse"),
    "createSCCPPass": ("SCCP", "sccp"),
    "createSymbolDCEPass": ("SymbolDCE", "symbol-dce"),
    "createInlinerPass": ("Inliner", "inline"),
    "createLoopInvariantCodeMotionPass": ("LoopInvariantCodeMotion", "loop-invariant-code-motion"),
    "createPrintIRPass": ("PrintIRPass", "print-ir"),
    "createSCFToControlFlowPass": ("SCFToControlFlowPass", "convert-scf-to-cf"),
    "createConvertSCFToCFPass": ("SCFToControlFlowPass", "convert-scf-to-cf"),
    "createConvertControlFlowToLLVMPass": ("ConvertControlFlowToLLVMPass", "convert-cf-to-llvm"),
    "createConvertIndexToLLVMPass": ("ConvertIndexToLLVMPass", "convert-index-to-llvm"),
    "createArithToLLVMConversionPass": ("ArithToLLVMConversionPass", "convert-arith-to-llvm"),
    "createConvertNVVMToLLVMPass": ("ConvertNVVMToLLVMPass", "convert-nvvm-to-llvm"),
    "createReconcileUnrealizedCastsPass": ("ReconcileUnrealizedCastsPass",
                                           "reconcile-unrealized-casts"),
    "createOneShotBufferizePass": ("OneShotBufferizePass", "one-shot-bufferize"),
    "createDropEquivalentBufferResultsPass": ("DropEquivalentBufferResultsPass",
                                              "drop-equivalent-buffer-results"),
    "createLowerAffinePass": ("LowerAffinePass", "lower-affine"),
    "createExpandStridedMetadataPass": ("ExpandStridedMetadataPass", "expand-strided-metadata"),
    "createArithExpandOpsPass": ("ArithExpandOpsPass", "arith-expand"),
    "createLinalgFoldUnitExtentDimsPass": ("LinalgFoldUnitExtentDimsPass",
                                           "linalg-fold-unit-extent-dims"),
    "createSCFForLoopCanonicalizationPass": ("SCFForLoopCanonicalization",
                                             "scf-for-loop-canonicalization"),
    "createLoopInvariantSubsetHoistingPass": ("LoopInvariantSubsetHoisting",
                                              "loop-invariant-subset-hoisting"),
    "createLowerVectorMaskPass": ("LowerVectorMaskPass", "lower-vector-mask"),
}


# ---------------------------------------------------------------------------------------------
# TableGen


@dataclass
class TdPass:
    """One `def X : Pass<"arg", ...>` (or InterfacePass) read from a .td file."""

    def_name: str
    argument: str
    path: str
    start_line: int
    end_line: int
    summary: str = ""
    description: str = ""
    constructor: str = ""
    options: list[PassOption] = field(default_factory=list)
    dependent_dialects: list[str] = field(default_factory=list)


_TD_TOKEN = re.compile(
    r"(?P<ws>\s+)|(?P<lc>//[^\n]*)|(?P<bc>/\*.*?\*/)|(?P<code>\[\{.*?\}\])"
    r'|(?P<str>"(?:[^"\\\n]|\\.)*")|(?P<id>[A-Za-z_][\w.]*)|(?P<num>\d+)|(?P<p>.)',
    re.S,
)


@dataclass
class _Tok:
    kind: str
    text: str
    line: int


def _td_tokens(text: str) -> list[_Tok]:
    toks, line = [], 1
    for m in _TD_TOKEN.finditer(text):
        kind = m.lastgroup
        if kind not in ("ws", "lc", "bc"):
            toks.append(_Tok(kind, m.group(), line))
        line += m.group().count("\n")
    return toks


def _until_close(toks: list[_Tok], i: int, open_: str, close: str) -> int:
    """Index of the token closing the bracket opened at toks[i]."""
    depth = 0
    for j in range(i, len(toks)):
        if toks[j].kind == "p" and toks[j].text == open_:
            depth += 1
        elif toks[j].kind == "p" and toks[j].text == close:
            depth -= 1
            if depth == 0:
                return j
    return len(toks) - 1


def _split_top(toks: list[_Tok], sep: str = ",") -> list[list[_Tok]]:
    """Split a token run at separators outside any bracket."""
    parts: list[list[_Tok]] = [[]]
    depth = 0
    for t in toks:
        if t.kind == "p" and t.text in "<[(":
            depth += 1
        elif t.kind == "p" and t.text in ">])":
            depth -= 1
        if depth == 0 and t.kind == "p" and t.text == sep:
            parts.append([])
        else:
            parts[-1].append(t)
    return [p for p in parts if p]


def _td_value(toks: list[_Tok]) -> str:
    """The string a TableGen value spells: adjacent strings concatenate, code blocks dedent."""
    out = []
    for t in toks:
        if t.kind == "str":
            out.append(t.text[1:-1].encode().decode("unicode_escape", "replace"))
        elif t.kind == "code":
            out.append(textwrap.dedent(t.text[2:-2]).strip())
        elif t.kind in ("id", "num"):
            out.append(t.text)
    return "".join(out)


def _td_options(toks: list[_Tok]) -> list[PassOption]:
    opts = []
    for i, t in enumerate(toks):
        if t.kind != "id" or t.text not in ("Option", "ListOption"):
            continue
        if i + 1 >= len(toks) or toks[i + 1].text != "<":
            continue
        end = _until_close(toks, i + 1, "<", ">")
        args = [_td_value(a) for a in _split_top(toks[i + 2:end])]
        if t.text == "Option" and len(args) >= 5:
            opts.append(PassOption(name=args[1], type=args[2], default=args[3],
                                   description=args[4], cpp_name=args[0]))
        elif t.text == "ListOption" and len(args) >= 4:
            opts.append(PassOption(name=args[1], type=args[2], description=args[3],
                                   cpp_name=args[0], is_list=True))
    return opts


def _td_body(p: TdPass, toks: list[_Tok]) -> None:
    """Fill a pass from the `let name = value;` fields of its body."""
    i = 0
    while i < len(toks):
        if toks[i].text == "let" and i + 2 < len(toks) and toks[i + 2].text == "=":
            name = toks[i + 1].text
            j = i + 3
            value: list[_Tok] = []
            depth = 0
            while j < len(toks) and not (depth == 0 and toks[j].text == ";"):
                if toks[j].kind == "p" and toks[j].text in "[<(":
                    depth += 1
                elif toks[j].kind == "p" and toks[j].text in "]>)":
                    depth -= 1
                value.append(toks[j])
                j += 1
            if name in ("summary", "description", "constructor"):
                setattr(p, name, _td_value(value))
            elif name == "options":
                p.options = _td_options(value)
            elif name == "dependentDialects":
                p.dependent_dialects = [_td_value([t]) for t in value if t.kind == "str"]
            i = j
        i += 1


def parse_td_passes(path: str, text: str) -> list[TdPass]:
    """Every pass def of a TableGen file, including defs nested in `let ... in {}` blocks
    and multiclasses (a def is recognised wherever it appears)."""
    toks = _td_tokens(text)
    out = []
    for i in range(len(toks) - 4):
        if not (toks[i].text == "def" and toks[i + 1].kind == "id" and toks[i + 2].text == ":"
                and toks[i + 3].text in ("Pass", "InterfacePass") and toks[i + 4].text == "<"):
            continue
        close = _until_close(toks, i + 4, "<", ">")
        args = _split_top(toks[i + 5:close])
        if not args:
            continue
        p = TdPass(def_name=toks[i + 1].text, argument=_td_value(args[0]), path=path,
                   start_line=toks[i].line, end_line=toks[close].line)
        if close + 1 < len(toks) and toks[close + 1].text == "{":
            end = _until_close(toks, close + 1, "{", "}")
            _td_body(p, toks[close + 2:end])
            p.end_line = toks[end].line
        out.append(p)
    return out


# ---------------------------------------------------------------------------------------------
# C++ implementation links


@dataclass
class CppSymbol:
    """A C++ class or function found in a source file, with its line range."""

    name: str
    path: str
    start_line: int
    end_line: int
    kind: str  # class | create_function | gen_pass_def
    base_def: str = ""  # the TableGen def whose Base it derives from / GEN_PASS_DEF names
    makes: list[str] = field(default_factory=list)  # classes built / create fns delegated to
    argument: str = ""  # for hand-written PassWrapper passes: getArgument()'s string
    description: str = ""


class _Lines:
    """Offset -> 1-based line number."""

    def __init__(self, text: str) -> None:
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def __call__(self, pos: int) -> int:
        return bisect.bisect_right(self.starts, pos)


_CPP_SKIP = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'', re.S)


def _match_brace(text: str, open_pos: int, open_: str = "{", close: str = "}") -> int:
    """Position of the bracket closing text[open_pos], skipping comments and literals."""
    depth, i = 0, open_pos
    while i < len(text):
        c = text[i]
        if c in "/\"'":
            m = _CPP_SKIP.match(text, i)
            if m:
                i = m.end()
                continue
        if c == open_:
            depth += 1
        elif c == close:
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return len(text) - 1


_GEN_DEF = re.compile(r"^[ \t]*#define[ \t]+GEN_PASS_DEF_(\w+)", re.M)
_CLASS = re.compile(r"\b(?:struct|class)\s+(\w+)\s*(?:final\s*)?:([^{;]*)\{")
_BASE = re.compile(r"(?:impl::)?(\w+)Base\s*<")
_CREATE = re.compile(r"std::unique_ptr\s*<[\w:\s<>]*>\s*((?:\w+::)*)(create\w+)\s*\(")
_GET_ARG = re.compile(r'getArgument\s*\(\s*\)\s*const[^{]*\{\s*return\s*"([\w\-.]+)"')
_GET_DESC = re.compile(r'getDescription\s*\(\s*\)\s*const[^{]*\{\s*return\s*"([^"]*)"')
_MAKES = re.compile(r"make_unique\s*<\s*(?:\w+::)*(\w+)\s*>|return\s+(?:\w+::)*(create\w+)\s*\(")


def scan_cpp(path: str, text: str) -> list[CppSymbol]:
    """GEN_PASS_DEF lines, pass classes (tablegen Base subclasses and PassWrapper passes)
    and `create*` definitions of one C++ file."""
    if "Pass" not in text:
        return []
    line = _Lines(text)
    out = [CppSymbol(m.group(0).strip(), path, line(m.start()), line(m.start()),
                     "gen_pass_def", base_def=m.group(1)) for m in _GEN_DEF.finditer(text)]
    for m in _CLASS.finditer(text):
        bases = m.group(2)
        base = _BASE.search(bases)
        if not base and "PassWrapper" not in bases:
            continue
        end = _match_brace(text, m.end() - 1)
        body = text[m.end():end]
        arg, desc = _GET_ARG.search(body), _GET_DESC.search(body)
        out.append(CppSymbol(m.group(1), path, line(m.start()), line(end), "class",
                             base_def=base.group(1) if base else "",
                             argument=arg.group(1) if arg else "",
                             description=desc.group(1) if desc else ""))
    for m in _CREATE.finditer(text):
        close = _match_brace(text, m.end() - 1, "(", ")")
        after = text[close + 1:close + 200].lstrip()
        if not after.startswith("{"):
            continue  # a declaration, not a definition
        brace = text.index("{", close)
        end = _match_brace(text, brace)
        makes = [a or b for a, b in _MAKES.findall(text[brace:end])]
        out.append(CppSymbol(m.group(2), path, line(m.start()), line(end), "create_function",
                             makes=makes))
    return out


# ---------------------------------------------------------------------------------------------
# pybind bindings


@dataclass
class Binding:
    """A python-visible pass adder, e.g. `passes.ttgpuir.add_coalesce` -> createTritonGPUCoalesce."""

    qualified: str
    create: str
    path: str
    line: int


_INIT_FN = re.compile(r"(?:void\s+(\w+)\s*\(\s*(?:py|pybind11)::module(?:_)?\s*&&?\s*\w+\s*\)"
                      r"|PYBIND11_MODULE\(\s*\w+\s*,\s*\w+\s*\))\s*\{")
_SUBMOD = re.compile(r"(\w+)\s*\(\s*(\w+)\.def_submodule\(\s*\"(\w+)\"\s*\)\s*\)")
_SUBVAR = re.compile(r"auto\s+(\w+)\s*=\s*(\w+)\.def_submodule\(\s*\"(\w+)\"\s*\)")
_WRAPPER = re.compile(r"ADD_PASS_(?:OPTION_)?WRAPPER_\d+\(\s*\"(\w+)\"\s*,\s*([\w:]+)")
_MDEF = re.compile(r"\b\w+\.def\(\s*\"(\w+)\"")
_ADDPASS = re.compile(r"add(?:Nested)?Pass\s*(?:<[^>]*>)?\s*\(\s*(?:std::move\()?\s*([\w:]+)\s*\(")
_STATIC_FN = re.compile(r"(?:static\s+)?std::unique_ptr\s*<[\w:\s]*>\s*(\w+)\s*\([^)]*\)\s*\{")


def _last(name: str) -> str:
    return name.rsplit("::", 1)[-1]


def scan_bindings(files: dict[str, str]) -> list[Binding]:
    """All pass bindings of the pybind sources, named by their python module path
    (`passes.ttgpuir.add_coalesce`, `nvidia.passes.ttnvgpuir.add_plan_cta`)."""
    parent: dict[str, tuple[str, str]] = {}  # init fn -> (parent init fn, submodule path)
    found: list[tuple[str, str, str, str, int]] = []  # (init fn, py name, create, path, line)
    for path, text in files.items():
        if "def_submodule" not in text and "ADD_PASS" not in text:
            continue
        line = _Lines(text)
        wrappers = _local_wrappers(text)
        for fm in _INIT_FN.finditer(text):
            end = _match_brace(text, fm.end() - 1)
            body = text[fm.end():end]
            variables = {v: sub for v, _, sub in _SUBVAR.findall(body)}
            for child, var, sub in _SUBMOD.findall(body):
                prefix = variables.get(var, "")
                parent[child] = (fm.group(1) or "", f"{prefix}.{sub}" if prefix else sub)
            for name, create, pos in _binding_calls(body):
                create = wrappers.get(_last(create), _last(create))
                found.append((fm.group(1) or "", name, create, path, line(fm.end() + pos)))
    return [Binding(f"{_module_path(fn, parent)}.{name}".lstrip("."), create, path, ln)
            for fn, name, create, path, ln in found]


def _binding_calls(body: str) -> Iterable[tuple[str, str, int]]:
    for m in _WRAPPER.finditer(body):
        yield m.group(1), m.group(2), m.start()
    for m in _MDEF.finditer(body):
        close = _match_brace(body, body.index("(", m.start()), "(", ")")
        add = _ADDPASS.search(body, m.end(), close)
        if add:
            yield m.group(1), add.group(1), m.start()


def _local_wrappers(text: str) -> dict[str, str]:
    """`static unique_ptr<Pass> createFooWrapper(..) { ... return createFoo(opts); }` ->
    {createFooWrapper: createFoo}: bindings often go through such a helper."""
    out = {}
    for m in _STATIC_FN.finditer(text):
        body = text[m.end():_match_brace(text, m.end() - 1)]
        inner = re.search(r"return\s+([\w:]+)\s*\(", body)
        if inner:
            out[m.group(1)] = _last(inner.group(1))
    return out


def _module_path(fn: str, parent: dict[str, tuple[str, str]]) -> str:
    parts: list[str] = []
    seen = set()
    while fn in parent and fn not in seen:
        seen.add(fn)
        fn, sub = parent[fn]
        parts.insert(0, sub)
    # A backend's root is registered by macro (INIT_BACKEND(nvidia) -> init_triton_nvidia).
    if fn.startswith("init_triton_"):
        parts.insert(0, fn.removeprefix("init_triton_"))
    return ".".join(parts)


# ---------------------------------------------------------------------------------------------
# Python pipelines (backend compiler.py)


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
    return _last(decl.text.decode()) if decl is not None else ""


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
                    created = _last(re.sub(r"<.*>", "", created))
                    if created.startswith("create"):  # skip make_unique<...>() and the like
                            self.calls.append(PipelineCall(
                            "create", created, stage, " && ".join(conds), path,
                            node.start_point[0] + 1, list(via)))
                return True
            return False
        name = _last(re.sub(r"<.*>", "", fn.text.decode()))
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


# ---------------------------------------------------------------------------------------------
# Assembly

# Python binding modules -> the argument prefixes their passes use; only for name inference.
_MODULE_PREFIXES = {
    "ttir": ["triton-"], "ttgpuir": ["tritongpu-", "triton-gpu-"],
    "ttnvgpuir": ["triton-nvidia-", "triton-nvidia-gpu-"], "convert": ["convert-"],
    "gluon": ["gluon-"], "llvmir": ["llvm-"], "common": [""], "nvws": ["nvws-"],
}
# Triton's `passes.common` / `passes.convert` bindings wrap upstream MLIR passes.
_COMMON_BINDINGS = {
    "add_sccp": "createSCCPPass", "add_symbol_dce": "createSymbolDCEPass",
    "add_inliner": "createInlinerPass", "add_canonicalizer": "createCanonicalizerPass",
    "add_cse": "createCSEPass", "add_licm": "createLoopInvariantCodeMotionPass",
    "print_ir": "createPrintIRPass", "add_scf_to_cf": "createSCFToControlFlowPass",
    "add_cf_to_llvmir": "createConvertControlFlowToLLVMPass",
    "add_index_to_llvmir": "createConvertIndexToLLVMPass",
    "add_arith_to_llvmir": "createArithToLLVMConversionPass",
    "add_nvvm_to_llvm": "createConvertNVVMToLLVMPass",
}
_NOISE_TOKENS = {"triton", "tritongpu", "gpu", "nvidia", "pass", "add", "tt", "ttg", "ttng"}


def _tokens(name: str) -> set[str]:
    name = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name)
    return {t for t in re.split(r"[^a-z0-9]+", name.lower()) if t and t not in _NOISE_TOKENS}


def _kebab(create_fn: str) -> str:
    core = create_fn.removeprefix("create").removesuffix("Pass")
    return re.sub(r"([a-z0-9])([A-Z])", r"\1-\2", core).lower()


def _is_backend_compiler(path: str) -> bool:
    return path.endswith("compiler.py") and ("/backend/" in path or "/backends/" in path)


class _Assembler:
    """Joins the readers' findings into PassRecords keyed by pass argument."""

    def __init__(self, source: str, repo_url: str, commit: str,
                 backend_of: Callable[[str], str]) -> None:
        self.source, self.repo_url, self.commit = source, repo_url, commit
        self.backend_of = backend_of
        self.records: dict[str, PassRecord] = {}
        self.by_def: dict[str, PassRecord] = {}
        self.by_create: dict[str, PassRecord] = {}
        self.by_binding: dict[str, PassRecord] = {}
        self.flags: list[PipelineFlag] = []
        self.counters: dict[tuple[str, str], int] = {}
        self.stage_order: dict[str, list[str]] = {}

    def _new(self, argument: str, **kw) -> PassRecord:
        r = PassRecord(argument=argument, source=self.source, repo_url=self.repo_url,
                       commit=self.commit, **kw)
        self.records[argument] = r
        return r

    def add_td(self, p: TdPass) -> None:
        if p.argument in self.records:  # a vendored copy of the same pass
            self.records[p.argument].also_defined_in.append(p.path)
            return
        r = self._new(p.argument, def_name=p.def_name, backend=self.backend_of(p.path),
                      summary=p.summary, description=p.description, options=p.options,
                      td_path=p.path, td_lines=[p.start_line, p.end_line],
                      constructor=p.constructor, dependent_dialects=p.dependent_dialects,
                      link_quality="partial")
        self.by_def.setdefault(p.def_name, r)
        ctor = re.findall(r"(\w+)\s*\(", p.constructor)
        # Without `constructor`, mlir-tblgen generates create<DefName>().
        self._add_create(r, ctor[0] if ctor else f"create{p.def_name}")

    def _add_create(self, r: PassRecord, name: str) -> None:
        if name not in r.create_functions:
            r.create_functions.append(name)
        self.by_create.setdefault(name, r)

    def _anchor(self, r: PassRecord, s: CppSymbol) -> None:
        a = ImplAnchor(s.path, s.name, s.start_line, s.end_line, s.kind, self.source)
        if a not in r.impl_anchors:
            r.impl_anchors.append(a)
        if s.kind in ("class", "gen_pass_def") and r.link_quality == "partial":
            r.link_quality = "exact"

    def add_symbols(self, symbols: list[CppSymbol]) -> None:
        by_upper = {d.upper(): r for d, r in self.by_def.items()}
        by_class: dict[str, PassRecord] = {}
        for s in symbols:
            r = None
            if s.kind == "gen_pass_def":
                r = by_upper.get(s.base_def)
            elif s.kind == "class":
                r = self.by_def.get(s.base_def)
                if r is None and s.argument:
                    r = self.records.get(s.argument) or self._new(
                        s.argument, def_name=s.name, backend=self.backend_of(s.path),
                        summary=s.description, link_quality="exact")
                if r is not None:
                    by_class[s.name] = r
                    if s.name not in r.classes:
                        r.classes.append(s.name)
            if r is not None:
                self._anchor(r, s)
        creates = [s for s in symbols if s.kind == "create_function"]
        for _ in range(2):  # a second round links creates that delegate to other creates
            for s in creates:
                r = self.by_create.get(s.name) or next(
                    (by_class.get(m) or self.by_create.get(m) for m in s.makes
                     if by_class.get(m) or self.by_create.get(m)), None)
                if r is not None:
                    self._add_create(r, s.name)
                    self._anchor(r, s)

    def resolve_create(self, create: str, qualified_binding: str = "") -> PassRecord:
        """The record a create function builds; upstream-MLIR passes and unknown names get
        `external` / `unresolved` records so the pipeline stays complete."""
        if create in self.by_create:
            return self.by_create[create]
        if create in MLIR_UPSTREAM:
            def_name, arg = MLIR_UPSTREAM[create]
            r = self.records.get(arg) or self._new(arg, def_name=def_name,
                                                   link_quality="external")
        else:
            r = self._infer(qualified_binding) if qualified_binding else None
            r = r or self.records.get(_kebab(create)) or self._new(
                _kebab(create), link_quality="unresolved")
        self._add_create(r, create)
        return r

    def _infer(self, qualified: str) -> PassRecord | None:
        """Name-similarity fallback for a binding with no C++ link: an argument the binding
        name spells under its module's prefix, else the best token overlap."""
        module, _, name = qualified.rpartition(".")
        module, core = module.rsplit(".", 1)[-1], name.removeprefix("add_")
        for prefix in _MODULE_PREFIXES.get(module, [""]) + [""]:
            guess = prefix + core.replace("_", "-")
            if guess in self.records and self.records[guess].link_quality != "unresolved":
                return self.records[guess]
        # Best token coverage of the binding name; fewer extra tokens breaks ties
        # (add_coalesce -> tritongpu-coalesce, not tritongpu-coalesce-async-copy).
        want = _tokens(core)
        best: tuple[float, int, str] = (0.0, 0, "")
        for r in self.records.values():
            if r.link_quality == "unresolved" or not want:
                continue
            have = _tokens(r.argument) | _tokens(r.def_name)
            score = (len(want & have) / len(want), -len(_tokens(r.argument) - want), r.argument)
            best = max(best, score)
        return self.records[best[2]] if best[0] >= 0.75 else None

    def add_binding(self, b: Binding) -> None:
        r = self.resolve_create(b.create, b.qualified)
        if b.qualified not in r.bindings:
            r.bindings.append(b.qualified)
        self.by_binding.setdefault(b.qualified, r)
        self._anchor(r, CppSymbol(b.qualified, b.path, b.line, b.line, "binding"))

    def binding_record(self, call: str) -> PassRecord:
        """The record a compiler.py call names, by its binding; by name when unbound."""
        for q, r in self.by_binding.items():
            if q == call or q.endswith("." + call) or call.endswith("." + q):
                return r
        name = call.rsplit(".", 1)[-1]
        if name in _COMMON_BINDINGS and call.rsplit(".", 2)[-2] in ("common", "convert"):
            r = self.resolve_create(_COMMON_BINDINGS[name])
        else:
            r = self._infer(call)
            if r is not None and r.link_quality in ("exact", "partial"):
                r.link_quality = "inferred"
            # A binding under a known module spells its argument well enough to be
            # `inferred`; anything else stays `unresolved`.
            module = call.rsplit(".", 2)[-2] if call.count(".") else ""
            r = r or self._new(self._guess_argument(call), link_quality="inferred"
                               if module in _MODULE_PREFIXES else "unresolved")
        r.bindings.append(call) if call not in r.bindings else None
        self.by_binding.setdefault(call, r)
        return r

    @staticmethod
    def _guess_argument(call: str) -> str:
        module, _, name = call.rpartition(".")
        prefix = _MODULE_PREFIXES.get(module.rsplit(".", 1)[-1], [""])[0]
        return prefix + name.removeprefix("add_").replace("_", "-")

    def add_call(self, c: PipelineCall, backend: str) -> None:
        if c.kind == "flag":
            r = self.records.get(c.name)
            if r is None or r.link_quality == "unresolved":
                flag = PipelineFlag(backend, c.stage, c.name, c.condition, c.path, c.line)
                if flag not in self.flags:
                    self.flags.append(flag)
                return
        elif c.kind == "binding":
            r = self.binding_record(c.name)
        else:
            r = self.resolve_create(c.name)
        stages = self.stage_order.setdefault(backend, [])
        if c.stage not in stages:
            stages.append(c.stage)
        key = (backend, c.stage)
        self.counters[key] = self.counters.get(key, -1) + 1
        r.pipeline_positions.append(PipelinePosition(
            backend, c.stage, self.counters[key], c.condition, c.path, c.line,
            call=("--" + c.name) if c.kind == "flag" else c.name, via=c.via))


def _assemble(files: dict[str, str], asm: _Assembler, *, with_cpp_pipelines: bool) -> None:
    for path in sorted(files):
        if path.endswith(".td"):
            for p in parse_td_passes(path, files[path]):
                asm.add_td(p)
    cpp = {p: t for p, t in files.items() if p.endswith(CPP_EXTS)}
    asm.add_symbols([s for p in sorted(cpp) for s in scan_cpp(p, cpp[p])])
    for b in scan_bindings(cpp):
        asm.add_binding(b)
    for path in sorted(files):
        if _is_backend_compiler(path):
            for c in read_python_pipeline(path, files[path]):
                asm.add_call(c, asm.backend_of(path))
    if with_cpp_pipelines:
        for c in read_cpp_pipelines(cpp):
            asm.add_call(c, asm.backend_of(c.path))
    # Upstream MLIR passes also run outside compiler.py (e.g. inside a conversion pass's own
    # pass manager); knowing them lets every dump header of a real compile resolve.
    for create in MLIR_UPSTREAM:
        asm.resolve_create(create)


def build_pass_registry(files: Iterable[tuple[str, str]], *, source: str, repo_url: str,
                        commit: str, backend_of: Callable[[str], str]) -> PassRegistry:
    """The registry of a compiler source tree, with the flags its pipelines pass to tools."""
    asm = _Assembler(source, repo_url, commit, backend_of)
    _assemble(dict(files), asm, with_cpp_pipelines=True)
    return PassRegistry(list(asm.records.values()), asm.flags, asm.stage_order)


def build_registry(files: Iterable[tuple[str, str]], *, source: str, repo_url: str,
                   commit: str, backend_of: Callable[[str], str]) -> list[PassRecord]:
    """Pass records of a compiler source tree given as (repo-relative path, text) pairs."""
    return list(build_pass_registry(files, source=source, repo_url=repo_url, commit=commit,
                                    backend_of=backend_of))


def build_installed_registry(package_dir: str | None = None, *, known: PassRegistry | None = None,
                             source: str = "triton") -> PassRegistry:
    """Pipelines of the installed `triton` wheel, which ships compiler.py but no .td or C++:
    each binding is resolved by name (link_quality `inferred`), against `known` when given."""
    from pathlib import Path

    if package_dir is None:
        import importlib.util

        spec = importlib.util.find_spec("triton")
        if spec is None or not spec.submodule_search_locations:
            raise PassIndexError("The `triton` package is not installed in this environment; "
                                 "install it or pass the package directory.")
        package_dir = spec.submodule_search_locations[0]
    root = Path(package_dir)
    version = _installed_version(root)
    files = {str(p.relative_to(root.parent)): p.read_text()
             for p in sorted(root.glob("backends/*/compiler.py"))}
    asm = _Assembler(source, "", version, _backend_of_installed)
    for r in known or []:
        asm.records[r.argument] = PassRecord.from_json(r.to_json())
        asm.records[r.argument].link_quality = "inferred" if r.link_quality in (
            "exact", "partial") else r.link_quality
        asm.records[r.argument].pipeline_positions = []
        asm.records[r.argument].bindings = []
        for c in r.create_functions:
            asm.by_create.setdefault(c, asm.records[r.argument])
    _assemble(files, asm, with_cpp_pipelines=False)
    return PassRegistry([r for r in asm.records.values() if r.pipeline_positions], asm.flags,
                        asm.stage_order)


class PassIndexError(KBError):
    """The pass registry cannot be built from what the user pointed at."""


def _installed_version(root) -> str:
    m = re.search(r"__version__\s*=\s*['\"]([^'\"]+)", (root / "__init__.py").read_text())
    return m.group(1) if m else ""


def _backend_of_installed(path: str) -> str:
    name = path.split("/backends/", 1)[-1].split("/", 1)[0]
    return {"nvidia": "cuda"}.get(name, name)
