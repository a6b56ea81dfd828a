"""A small compiler-like git repository, built by the tests, in two versions (commit A and B)."""

from __future__ import annotations

from pathlib import Path

import git

PASSES_TD = '''\
include "mlir/Pass/PassBase.td"

def TritonGPUCoalesce : Pass<"tritongpu-coalesce", "mlir::ModuleOp"> {
  let summary = "coalesce global memory accesses";
  let description = [{
    Reorders the thread layout of loads and stores so that consecutive threads touch
    consecutive addresses; the vector width comes from axis-info contiguity { and divisibility }.
  }];
  let dependentDialects = ["mlir::triton::gpu::TritonGPUDialect"];
}

def TritonGPURemoveLayoutConversions : Pass<"tritongpu-remove-layout-conversions", "mlir::ModuleOp"> {
  let summary = "remove superfluous layout conversions";
}

def TritonGPUPipeline : Pass<"tritongpu-pipeline", "mlir::ModuleOp"> {
  let summary = "software pipelining of loops with async copies";
  let options = [
    Option<"numStages", "num-stages", "int32_t", /*default*/"3", "number of pipeline stages">
  ];
}
'''

COALESCE_CPP = '''\
#include "triton/Analysis/AxisInfo.h"

namespace mlir::triton::gpu {

#define GEN_PASS_DEF_TRITONGPUCOALESCE
#include "triton/Dialect/TritonGPU/Transforms/Passes.h.inc"

static unsigned getVectorWidth(AxisInfo &info, unsigned elemBits) {
  // The load is vectorized only if the pointer is contiguous and divisible by 16 bytes.
  unsigned contiguity = info.getContiguity(0);
  unsigned divisibility = info.getDivisibility(0);
  unsigned maxBits = std::min<unsigned>(128, divisibility * 8);
  return std::min(contiguity, maxBits / elemBits);
}

struct CoalescePass : public impl::TritonGPUCoalesceBase<CoalescePass> {
  void runOnOperation() override {
    ModuleOp mod = getOperation();
    ModuleAxisInfoAnalysis axisInfo(mod);
    mod.walk([&](Operation *op) {
      if (auto load = dyn_cast<LoadOp>(op))
        setCoalescedLayout(load, axisInfo);
    });
  }
};

} // namespace mlir::triton::gpu
'''

PIPELINE_CPP = '''\
namespace mlir::triton::gpu {

bool canPipelineLoop(scf::ForOp forOp) {
  // A loop is pipelined only when its trip count and loads are known to the scheduler.
  if (forOp->hasAttr("tt.disallow_acc_multi_buffer"))
    return false;
  return forOp.getSingleLowerBound().has_value();
}

} // namespace mlir::triton::gpu
'''

COMPILER_PY = '''\
def make_ttgir(mod, metadata, opt, capability):
    pm = ir.pass_manager(mod.context)
    passes.ttgpuir.add_coalesce(pm)
    passes.ttgpuir.add_remove_layout_conversions(pm)
    if capability // 10 >= 9:
        passes.ttgpuir.add_pipeline(pm, opt.num_stages)
    pm.run(mod)
    return mod
'''

GUIDE_MD = '''\
# Compiler guide

## Debugging

Set MLIR_ENABLE_DUMP=1 to print the IR before every pass.

## Ascend

On Ascend NPUs the unified buffer holds the tiles of a block; keep BLOCK small enough.
'''

LIT_MLIR = '''\
// RUN: triton-opt %s -split-input-file -tritongpu-coalesce | FileCheck %s

// CHECK-LABEL: @load_vec
tt.func @load_vec(%arg0: !tt.ptr<f32>) {
  tt.return
}

// -----

// CHECK-LABEL: @store_vec
tt.func @store_vec(%arg0: !tt.ptr<f32>) {
  tt.return
}
'''

BINDINGS_CC = '''\
void init_triton_passes_ttgpuir(py::module &&m) {
  using namespace mlir::triton::gpu;
  ADD_PASS_WRAPPER_0("add_coalesce", createTritonGPUCoalesce);
  ADD_PASS_WRAPPER_0("add_remove_layout_conversions", createTritonGPURemoveLayoutConversions);
  ADD_PASS_WRAPPER_0("add_pipeline", createTritonGPUPipeline);
}
void init_triton_passes(py::module &&m) {
  init_triton_passes_ttgpuir(m.def_submodule("ttgpuir"));
}
'''

MAIN_CC = '''\
PYBIND11_MODULE(libtriton, m) {
  init_triton_passes(m.def_submodule("passes"));
}
'''

ASCEND_MD = '''\
# Ascend memory

Discrete memory accesses are converted to a contiguous load followed by a gather by the
discrete-mask-access-conversion pass.
'''


def write(root: Path, files: dict[str, str | bytes]) -> None:
    for rel, content in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            p.write_bytes(content)
        else:
            p.write_text(content, encoding="utf-8")


def make_compiler_repo(root: Path) -> tuple[git.Repo, str]:
    """Commit A of the fixture compiler; returns the repo and the commit sha."""
    root.mkdir(parents=True, exist_ok=True)
    repo = git.Repo.init(root)
    with repo.config_writer() as cw:
        cw.set_value("user", "name", "passwise-tests")
        cw.set_value("user", "email", "tests@passwise.invalid")
    write(root, {
        "include/Passes.td": PASSES_TD,
        "lib/Coalesce.cpp": COALESCE_CPP,
        "lib/Pipeline.cpp": PIPELINE_CPP,
        "third_party/nvidia/backend/compiler.py": COMPILER_PY,
        "python/src/passes.cc": BINDINGS_CC,
        "python/src/main.cc": MAIN_CC,
        "docs/guide.md": GUIDE_MD,
        "test/coalesce.mlir": LIT_MLIR,
        "third_party/ascend/docs/memory.md": ASCEND_MD,
        "build/generated.cpp": "int generated() { return 1; }\n",
    })
    repo.git.add(A=True)
    repo.index.commit("commit A")
    return repo, repo.head.commit.hexsha


def advance_compiler_repo(repo: git.Repo) -> str:
    """Commit B: one file changed, one added, one removed."""
    root = Path(repo.working_tree_dir)
    write(root, {
        "lib/Pipeline.cpp": PIPELINE_CPP.replace(
            "return forOp.getSingleLowerBound().has_value();",
            "return forOp.getSingleLowerBound().has_value() && numStagesAtLeastTwo(forOp);"),
        "lib/Prefetch.cpp": "namespace mlir {\nvoid prefetchSharedOperands(int stages) {\n"
                            "  // prefetch dot operands from shared memory into registers\n}\n}\n",
    })
    (root / "docs/guide.md").unlink()
    repo.git.add(A=True)
    repo.index.commit("commit B")
    return repo.head.commit.hexsha


def manifest(path: Path, url: str, extra: str = "") -> Path:
    path.write_text(f'''name = "fixture"
description = "fixture compiler"

[[sources]]
name = "fixture"
type = "git"
url = "{url}"
ref = "HEAD"
backend = "common"
backend_rules = {{ "third_party/ascend/**" = "ascend", "lib/**" = "cuda" }}
{extra}
''', encoding="utf-8")
    return path
