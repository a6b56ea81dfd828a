"""Joins what the readers found into `PassRecord`s keyed by pass argument: links defs to
classes, create functions and bindings, places each pass in its pipelines, and builds the
registry of a source tree or of an installed Triton wheel."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from pathlib import Path

from indexer.passes.bindings import Binding, scan_bindings
from indexer.passes.cpp import CPP_EXTS, CppSymbol, scan_cpp
from indexer.passes.pipelines import PipelineCall, read_cpp_pipelines, read_python_pipeline
from indexer.passes.tablegen import TdPass, parse_td_passes
from kb.errors import KBError
from kb.passes import ImplAnchor, PassRecord, PassRegistry, PipelineFlag, PipelinePosition

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


class PassIndexError(KBError):
    """The pass registry cannot be built from what the user pointed at."""


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


def _installed_version(root: Path) -> str:
    m = re.search(r"__version__\s*=\s*['\"]([^'\"]+)", (root / "__init__.py").read_text())
    return m.group(1) if m else ""


def _backend_of_installed(path: str) -> str:
    name = path.split("/backends/", 1)[-1].split("/", 1)[0]
    return {"nvidia": "cuda"}.get(name, name)
