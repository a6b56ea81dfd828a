"""Pass registry: building records from a compiler tree (fixture and real mirrors), lookups by
every name a user holds (incl. real MLIR dump headers), pipelines, persistence, merging."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from indexer.passes import (
    build_installed_registry,
    build_pass_registry,
    build_registry,
    parse_td_passes,
)
from kb.passes import PassRegistry, PassRegistryError, parse_dump_header

TD = '''\
#ifndef FOO_PASSES
include "mlir/Pass/PassBase.td"

def TritonGPUCoalesce : Pass<"tritongpu-coalesce", "mlir::ModuleOp"> {
  let summary = "coalesce "
                "memory accesses";
  let description = [{
    Rewrites layouts so that { adjacent } threads touch adjacent addresses.
    A brace-y example: `for (i) { a[i] = b[i]; }`
  }];
  let dependentDialects = ["mlir::triton::gpu::TritonGPUDialect"];
  let options = [
    Option<"numWarps", "num-warps", "int32_t", /*default*/"4", "number of warps">,
    ListOption<"widths", "widths", "int64_t", "candidate vector widths">
  ];
}

let dependentDialects = ["mlir::scf::SCFDialect"] in {
  def TritonGPUPipeline : InterfacePass<"tritongpu-pipeline", "mlir::FunctionOpInterface"> {
    let summary = "software pipelining";
    let constructor = "mlir::triton::gpu::createPipelinePass()";
  }
}

def TritonGPURemoveLayoutConversions : Pass<"tritongpu-remove-layout-conversions", "mlir::ModuleOp"> {
  let summary = "remove superfluous layout conversions";
}
#endif
'''

COALESCE_CPP = '''\
#include "Passes.h"
namespace mlir::triton::gpu {
#define GEN_PASS_DEF_TRITONGPUCOALESCE
#include "Passes.h.inc"

struct CoalescePass : public impl::TritonGPUCoalesceBase<CoalescePass> {
  void runOnOperation() override {
    if (true) { /* } a brace in a comment */ }
  }
};
} // namespace
'''

PIPELINE_CPP = '''\
#include "Passes.h"
namespace {
class SoftwarePipeliner : public TritonGPUPipelineBase<SoftwarePipeliner> {
  void runOnOperation() override { auto s = "}"; }
};
} // namespace

std::unique_ptr<mlir::Pass> mlir::triton::gpu::createPipelinePass() {
  return std::make_unique<SoftwarePipeliner>();
}
'''

LAYOUT_CPP = '''\
#define GEN_PASS_DEF_TRITONGPUREMOVELAYOUTCONVERSIONS
#include "Passes.h.inc"
class RemoveLayoutPass
    : public impl::TritonGPURemoveLayoutConversionsBase<RemoveLayoutPass> {
public:
  void runOnOperation() override {}
};
'''

MAIN_CC = '''\
void init_triton_passes(pybind11::module &&m);
PYBIND11_MODULE(libtriton, m) {
  init_triton_passes(m.def_submodule("passes"));
}
'''

PASSES_CC = '''\
void init_triton_passes_ttgpuir(py::module &&m) {
  using namespace mlir::triton::gpu;
  ADD_PASS_WRAPPER_0("add_coalesce", createTritonGPUCoalesce);
  m.def("add_pipeline", [](mlir::PassManager &pm, int stages) {
    pm.addPass(mlir::triton::gpu::createPipelinePass());
  });
  ADD_PASS_WRAPPER_0("add_remove_layout_conversions",
                     createTritonGPURemoveLayoutConversions);
}
void init_triton_passes_common(py::module &&m) {
  ADD_PASS_WRAPPER_0("add_cse", createCSEPass);
}
void init_triton_passes(py::module &&m) {
  init_triton_passes_common(m.def_submodule("common"));
  init_triton_passes_ttgpuir(m.def_submodule("ttgpuir"));
}
'''

COMPILER_PY = '''\
from triton._C.libtriton import passes, ir


class FooBackend:
    def make_ttgir(self, mod, metadata, opt, capability):
        pm = ir.pass_manager(mod.context)
        passes.ttgpuir.add_coalesce(pm)
        if capability // 10 >= 9:
            passes.ttgpuir.add_pipeline(pm, opt.num_stages)
        else:
            passes.ttgpuir.add_remove_layout_conversions(pm)
        passes.ttgpuir.add_remove_layout_conversions(pm)
        passes.common.add_cse(pm)
        pm.run(mod)
        return mod

    def make_bin(self, src, metadata, opt):
        cmd = ["foo-opt", "--tritongpu-coalesce"]
        if opt.multibuffer:
            cmd += [f"--enable-auto-multi-buffer={opt.multibuffer}"]
        return cmd

    def add_stages(self, stages, options, language):
        stages["ttgir"] = lambda src, metadata: self.make_ttgir(src, metadata, options, 90)
        stages["bin"] = lambda src, metadata: self.make_bin(src, metadata, options)
'''

FIXTURE = {
    "include/triton/Dialect/TritonGPU/Transforms/Passes.td": TD,
    "lib/Dialect/TritonGPU/Transforms/Coalesce.cpp": COALESCE_CPP,
    "lib/Dialect/TritonGPU/Transforms/Pipeline.cpp": PIPELINE_CPP,
    "lib/Dialect/TritonGPU/Transforms/RemoveLayout.cpp": LAYOUT_CPP,
    "python/src/main.cc": MAIN_CC,
    "python/src/passes.cc": PASSES_CC,
    "third_party/foo/backend/compiler.py": COMPILER_PY,
}

MIRROR = Path("/work/.mirror/triton-lang+triton-ascend/repo")
NPU_IR_MIRROR = Path("/work/.mirror/Ascend+AscendNPU-IR/repo")


def _backend_of(path: str) -> str:
    if "third_party/ascend" in path or path.startswith("bishengir"):
        return "ascend"
    if "third_party/nvidia" in path or "third_party/foo" in path:
        return "cuda"
    if "third_party/amd" in path:
        return "amd"
    return "common"


@pytest.fixture
def tree(tmp_path: Path) -> list[tuple[str, str]]:
    """The fixture source tree, written to disk and read back as the indexer would."""
    for rel, text in FIXTURE.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    return [(str(p.relative_to(tmp_path)), p.read_text())
            for p in sorted(tmp_path.rglob("*")) if p.is_file()]


@pytest.fixture
def registry(tree) -> PassRegistry:
    return build_pass_registry(tree, source="fixture", repo_url="https://example.com/foo",
                               commit="abc123", backend_of=_backend_of)


def test_td_parser_reads_options_concatenated_summary_and_braced_description():
    passes = {p.argument: p for p in parse_td_passes("Passes.td", TD)}
    assert set(passes) == {"tritongpu-coalesce", "tritongpu-pipeline",
                           "tritongpu-remove-layout-conversions"}
    c = passes["tritongpu-coalesce"]
    assert c.def_name == "TritonGPUCoalesce"
    assert c.summary == "coalesce memory accesses"
    assert "{ adjacent }" in c.description and "a[i] = b[i]; }`" in c.description
    assert (c.start_line, c.end_line) == (4, 16)
    assert [(o.name, o.type, o.default, o.is_list) for o in c.options] == [
        ("num-warps", "int32_t", "4", False), ("widths", "int64_t", "", True)]
    assert c.options[1].description == "candidate vector widths"
    assert c.dependent_dialects == ["mlir::triton::gpu::TritonGPUDialect"]
    p = passes["tritongpu-pipeline"]  # InterfacePass inside a `let ... in {}` block
    assert p.constructor == "mlir::triton::gpu::createPipelinePass()"
    assert (p.start_line, p.end_line) == (19, 22)


def test_records_link_def_class_create_function_and_binding(registry):
    r = registry.lookup("tritongpu-coalesce")
    assert r.link_quality == "exact"
    assert r.td_path == "include/triton/Dialect/TritonGPU/Transforms/Passes.td"
    assert r.classes == ["CoalescePass"]
    assert r.create_functions == ["createTritonGPUCoalesce"]
    assert r.bindings == ["passes.ttgpuir.add_coalesce"]
    anchors = {(a.kind, a.symbol): (a.path, a.start_line, a.end_line) for a in r.impl_anchors}
    assert anchors[("class", "CoalescePass")] == (
        "lib/Dialect/TritonGPU/Transforms/Coalesce.cpp", 6, 10)
    assert anchors[("gen_pass_def", "#define GEN_PASS_DEF_TRITONGPUCOALESCE")][1] == 3
    assert anchors[("binding", "passes.ttgpuir.add_coalesce")][0] == "python/src/passes.cc"
    assert (r.source, r.repo_url, r.commit) == ("fixture", "https://example.com/foo", "abc123")

    p = registry.lookup("tritongpu-pipeline")
    assert p.classes == ["SoftwarePipeliner"]  # old-style Base without impl::
    assert "createPipelinePass" in p.create_functions
    fn = next(a for a in p.impl_anchors if a.kind == "create_function")
    assert (fn.symbol, fn.start_line, fn.end_line) == ("createPipelinePass", 8, 10)
    assert p.bindings == ["passes.ttgpuir.add_pipeline"]  # m.def lambda binding


def test_pipeline_is_ordered_with_capability_conditions(registry):
    entries = registry.pipeline_entries("cuda", "ttgir")
    assert [(r.argument, p.index) for r, p in entries] == [
        ("tritongpu-coalesce", 0), ("tritongpu-pipeline", 1),
        ("tritongpu-remove-layout-conversions", 2), ("tritongpu-remove-layout-conversions", 3),
        ("cse", 4)]
    conds = [p.condition for _, p in entries]
    assert conds[1] == "capability // 10 >= 9"
    assert conds[2] == "not (capability // 10 >= 9)"
    assert conds[3] == "" and entries[3][1].line == 12
    cse = registry.lookup("cse")
    assert cse.link_quality == "external" and cse.def_name == "CSE"


def test_tool_flags_become_positions_or_are_kept_as_flags(registry):
    # --tritongpu-coalesce names a pass: it is a position of the `bin` stage.
    assert registry.stages("cuda") == ["ttgir", "bin"]
    [(r, p)] = registry.pipeline_entries("cuda", "bin")
    assert r.argument == "tritongpu-coalesce" and p.call == "--tritongpu-coalesce"
    # --enable-auto-multi-buffer is a tool option, not a pass: kept with its condition.
    [flag] = registry.flags
    assert (flag.flag, flag.stage, flag.condition) == (
        "enable-auto-multi-buffer", "bin", "opt.multibuffer")


@pytest.mark.parametrize("name", [
    "tritongpu-coalesce", "TritonGPUCoalesce", "CoalescePass", "createTritonGPUCoalesce",
    "add_coalesce", "ttgpuir.add_coalesce", "passes.ttgpuir.add_coalesce",
    "--tritongpu-coalesce", "--tritongpu-coalesce=num-warps=8",
    "mlir::triton::gpu::createTritonGPUCoalesce",
    # Triton 3.6 (MLIR_ENABLE_DUMP=1) prints this header:
    "// -----// IR Dump Before TritonGPUCoalesce (tritongpu-coalesce) "
    "('builtin.module' operation) //----- //",
    # newer MLIR (Triton 3.9): symbol-named operations and failure headers
    "// -----// IR Dump After TritonGPUCoalesce (tritongpu-coalesce) "
    "('tt.func' operation: @matmul_kernel) //----- //",
    "// -----// IR Dump After TritonGPUCoalesce Failed (tritongpu-coalesce) "
    "('builtin.module' operation) //----- //",
    "IR Dump Before TritonGPUCoalesce: tritongpu-coalesce",
    "// -----// IR Dump Before TritonGPUCoalesce //----- //",  # no argument printed
])
def test_lookup_accepts_every_name_form(registry, name):
    r = registry.lookup(name)
    assert r is not None and r.argument == "tritongpu-coalesce"


def test_lookup_of_unknown_names_is_none(registry):
    assert registry.lookup("no-such-pass") is None
    assert registry.lookup("// -----// IR Dump Before NoSuch (no-such) //----- //") is None
    assert parse_dump_header("tt.func @kernel() {") is None


def test_header_parser_reads_when_operation_and_failure():
    h = parse_dump_header("// -----// IR Dump After TritonGPUPipeline Failed "
                          "(tritongpu-pipeline) ('tt.func' operation: @k) //----- //")
    assert (h.when, h.pass_name, h.argument, h.operation, h.failed) == (
        "After", "TritonGPUPipeline", "tritongpu-pipeline", "tt.func", True)


def test_save_and_load_round_trip(registry, tmp_path):
    path = tmp_path / "kb" / "passes.json"
    registry.save(path)
    loaded = PassRegistry.load(path)
    assert [r.to_json() for r in loaded] == [r.to_json() for r in registry]
    assert loaded.flags == registry.flags
    assert [r.argument for r in loaded.pipeline("cuda")] == [
        r.argument for r in registry.pipeline("cuda")]


def test_load_errors_name_the_cause_and_the_fix(tmp_path):
    with pytest.raises(PassRegistryError, match="No pass registry at .*passwise index"):
        PassRegistry.load(tmp_path / "missing.json")
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(PassRegistryError, match="not valid JSON"):
        PassRegistry.load(tmp_path / "bad.json")


def test_binding_without_cpp_is_inferred_by_name(tree):
    no_pybind = [(p, t) for p, t in tree if not p.startswith("python/src")]
    records = {r.argument: r for r in build_registry(
        no_pybind, source="fixture", repo_url="", commit="", backend_of=_backend_of)}
    # add_remove_layout_conversions -> tritongpu-remove-layout-conversions by name only
    r = records["tritongpu-remove-layout-conversions"]
    assert r.link_quality == "inferred"
    assert [p.stage for p in r.pipeline_positions] == ["ttgir", "ttgir"]


def test_merge_unites_positions_and_prefers_real_defs(registry):
    installed_like = build_registry(
        [("third_party/ascend/backend/compiler.py", COMPILER_PY)], source="wheel",
        repo_url="", commit="", backend_of=_backend_of)
    merged = registry.merge(PassRegistry(installed_like))
    r = merged.lookup("tritongpu-coalesce")
    assert r.link_quality == "exact" and r.td_path.endswith("Passes.td")
    assert {p.backend for p in r.pipeline_positions} == {"cuda", "ascend"}
    assert [x.argument for x in merged.pipeline("ascend", "ttgir")][0] == "tritongpu-coalesce"


def test_installed_triton_pipeline_resolves_bindings_by_name():
    reg = build_installed_registry()
    ttgir = [r.argument for r in reg.pipeline("cuda", "ttgir")]
    assert "tritongpu-coalesce" in ttgir
    assert ttgir.index("tritongpu-coalesce") < ttgir.index("tritongpu-remove-layout-conversions")
    assert reg.lookup("tritongpu-coalesce").link_quality == "inferred"
    assert reg.lookup("passes.ttgpuir.add_coalesce").argument == "tritongpu-coalesce"


# --- real Triton 3.6 dump headers -----------------------------------------------------------

KERNEL = '''\
import triton, triton.language as tl
from triton.backends.compiler import GPUTarget

@triton.jit
def kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=m) * 2, mask=m)

src = triton.compiler.ASTSource(
    fn=kernel, signature={"x_ptr": "*fp32", "y_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"},
    constexprs={"BLOCK": 128})
triton.compile(src, target=GPUTarget("cuda", 90, 32))
'''


@pytest.fixture(scope="module")
def dump_headers(tmp_path_factory) -> list[str]:
    d = tmp_path_factory.mktemp("dump")
    (d / "k.py").write_text(KERNEL)
    env = dict(os.environ, MLIR_ENABLE_DUMP="1", TRITON_CACHE_DIR=str(d / "cache"))
    out = subprocess.run([sys.executable, str(d / "k.py")], env=env, capture_output=True,
                         text=True, timeout=300, check=True)
    return [ln for ln in (out.stdout + out.stderr).splitlines()
            if ln.startswith("// -----// IR Dump")]


@pytest.mark.slow
def test_real_dump_headers_parse_and_resolve_against_installed_pipeline(dump_headers):
    assert any("(tritongpu-coalesce)" in h for h in dump_headers)
    reg = build_installed_registry()
    parsed = [parse_dump_header(h) for h in dump_headers]
    assert all(p is not None and p.argument and p.when == "Before" for p in parsed)
    coalesce = next(h for h in dump_headers if "(tritongpu-coalesce)" in h)
    assert reg.lookup(coalesce).argument == "tritongpu-coalesce"


@pytest.mark.slow
@pytest.mark.skipif(not MIRROR.exists(), reason="triton-ascend mirror not present")
def test_real_dump_headers_all_resolve_against_source_registry(dump_headers, mirror_registry):
    missing = {parse_dump_header(h).argument for h in dump_headers
               if mirror_registry.lookup(h) is None}
    # The installed wheel and the mirror are different Triton versions: a header may only
    # miss when the mirror's sources do not define that pass at all.
    sources = "\n".join(t for p, t in _git_files(MIRROR) if p.endswith(".td"))
    assert all(f'"{arg}"' not in sources for arg in missing), missing
    assert len(missing) <= 2, missing


# --- the real mirrors ----------------------------------------------------------------------

def _git_files(repo: Path) -> list[tuple[str, str]]:
    names = subprocess.run(["git", "-C", str(repo), "ls-tree", "-r", "--name-only", "HEAD"],
                           capture_output=True, text=True, check=True).stdout.split()
    names = [n for n in names if n.endswith((".td", ".cpp", ".cc", ".h", "compiler.py"))]
    blob = subprocess.run(["git", "-C", str(repo), "cat-file", "--batch"],
                          input="".join(f"HEAD:{n}\n" for n in names).encode(),
                          capture_output=True, check=True).stdout
    out, i = [], 0
    for n in names:
        nl = blob.index(b"\n", i)
        size = int(blob[i:nl].split()[2])
        out.append((n, blob[nl + 1:nl + 1 + size].decode("utf-8", "replace")))
        i = nl + 1 + size + 1
    return out


@pytest.fixture(scope="module")
def mirror_registry() -> PassRegistry:
    return build_pass_registry(_git_files(MIRROR), source="triton-ascend", repo_url="",
                               commit="HEAD", backend_of=_backend_of)


@pytest.mark.skipif(not MIRROR.exists(), reason="triton-ascend mirror not present")
def test_real_coalesce_has_def_implementation_and_cuda_position(mirror_registry):
    r = mirror_registry.lookup("tritongpu-coalesce")
    assert r.link_quality == "exact" and r.def_name == "TritonGPUCoalesce"
    assert r.td_path == "include/triton/Dialect/TritonGPU/Transforms/Passes.td"
    assert any(a.path == "lib/Dialect/TritonGPU/Transforms/Coalesce.cpp" and a.kind == "class"
               for a in r.impl_anchors)
    ttgir = [x.argument for x in mirror_registry.pipeline("cuda", "ttgir")]
    assert ttgir.index("tritongpu-coalesce") < ttgir.index("tritongpu-remove-layout-conversions")
    f32 = next(p for x, p in mirror_registry.pipeline_entries("cuda", "ttgir")
               if x.argument == "tritongpu-F32DotTC")
    assert f32.condition == "capability // 10 >= 8"


@pytest.mark.skipif(not MIRROR.exists(), reason="triton-ascend mirror not present")
def test_real_ascend_frontend_passes_are_in_ascend_pipeline(mirror_registry):
    r = mirror_registry.lookup("ascend.passes.ttir.add_discrete_mask_access_conversion")
    assert r.argument == "discrete-mask-access-conversion" and r.backend == "ascend"
    assert r.td_path.startswith("third_party/ascend/include/")
    adapter = [x.argument for x in mirror_registry.pipeline("ascend", "ttadapter")]
    assert adapter.index("discrete-mask-access-conversion") < adapter.index("triton-to-linalg")
    assert mirror_registry.stages("ascend")[:2] == ["ttir", "ttadapter"]


@pytest.mark.skipif(not NPU_IR_MIRROR.exists(), reason="AscendNPU-IR mirror not present")
def test_real_bishengir_pipeline_reaches_hivm_passes_with_conditions():
    reg = build_pass_registry(_git_files(NPU_IR_MIRROR), source="AscendNPU-IR", repo_url="",
                              commit="HEAD", backend_of=_backend_of)
    r = reg.lookup("hivm-plan-memory")
    assert r.def_name and r.td_path.endswith("HIVM/Transforms/Passes.td")
    assert r.link_quality == "exact"
    pos = next(p for p in r.pipeline_positions
               if p.stage == "bishengir-compile:buildBiShengHIRPipeline")
    assert "buildOptimizeHIVMPipeline" in pos.via
    assert "config.getEnableHIVMCompile()" in pos.condition
    assert pos.path.endswith("HIVMPipelines.cpp")


@pytest.mark.skipif(not MIRROR.exists(), reason="triton-ascend mirror not present")
def test_installed_pipeline_borrows_defs_from_a_known_source_registry(mirror_registry):
    reg = build_installed_registry(known=mirror_registry)
    # add_f32_dot_tc cannot be spelled into `tritongpu-F32DotTC` by prefix; the known
    # registry's def name can.
    r = reg.lookup("passes.ttgpuir.add_f32_dot_tc")
    assert r.argument == "tritongpu-F32DotTC" and r.link_quality == "inferred"
    assert r.td_path.endswith("TritonGPU/Transforms/Passes.td") and r.impl_anchors
    assert {p.path for p in r.pipeline_positions} >= {"triton/backends/nvidia/compiler.py"}
    assert all(p.path.startswith("triton/backends/") for p in r.pipeline_positions)
