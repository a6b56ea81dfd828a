"""Chunkers on small realistic sources: symbols, kinds, scopes, line ranges, sizes, passes."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from indexer.chunkers import ChunkResult, chunk_file, language_for
from indexer.chunkers.segments import text_size
from kb.chunk import KINDS, header

MIRROR = Path("/work/.mirror/triton-lang+triton-ascend/repo")

CPP_PASS = """\
#include "mlir/IR/PatternMatch.h"
#include "triton/Dialect/TritonGPU/Transforms/Passes.h"

#define DEBUG_TYPE "tritongpu-coalesce"

namespace mlir {
namespace triton {
namespace gpu {

#define GEN_PASS_DEF_TRITONGPUCOALESCE
#include "triton/Dialect/TritonGPU/Transforms/Passes.h.inc"

// Turns a load of a splatted pointer into a splat of a scalar load.
struct FoldSplatLoadPattern : public OpRewritePattern<triton::LoadOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(triton::LoadOp op,
                                PatternRewriter &rewriter) const override {
    auto splat = op.getPtr().getDefiningOp<triton::SplatOp>();
    if (!splat)
      return failure();
    rewriter.replaceOpWithNewOp<triton::SplatOp>(op, op.getType(), splat.getSrc());
    return success();
  }
};

class LayoutPlanner {
public:
  explicit LayoutPlanner(ModuleOp module) : module(module) {}

  // Picks the blocked layout with the widest contiguous access for `op`.
  Attribute pickLayout(Operation *op, int numWarps, int threadsPerWarp) {
    auto tensorType = cast<RankedTensorType>(op->getResultTypes()[0]);
    SmallVector<unsigned> order = getOrderFromContiguity(contiguityOf(op));
    unsigned perThread = std::min<unsigned>(4, tensorType.getShape()[order[0]]);
    SmallVector<unsigned> sizePerThread(tensorType.getRank(), 1);
    sizePerThread[order[0]] = perThread;
    return BlockedEncodingAttr::get(op->getContext(), tensorType.getShape(),
                                    sizePerThread, order, numWarps,
                                    threadsPerWarp, CTALayoutAttr::getDefault(op));
  }

  void recordChoice(Operation *op, Attribute layout) {
    if (choices.count(op))
      return;
    choices[op] = layout;
    LLVM_DEBUG(llvm::dbgs() << "layout for " << *op << ": " << layout << "\\n");
  }

  unsigned countChoices() const { return choices.size(); }

private:
  ModuleOp module;
  llvm::MapVector<Operation *, Attribute> choices;
};

struct CoalescePass : public impl::TritonGPUCoalesceBase<CoalescePass> {
  void runOnOperation() override;
};

void CoalescePass::runOnOperation() {
  ModuleOp module = getOperation();
  LayoutPlanner planner(module);
  module.walk([&](Operation *op) {
    if (isa<triton::LoadOp, triton::StoreOp>(op))
      planner.recordChoice(op, planner.pickLayout(op, 4, 32));
  });
  RewritePatternSet patterns(&getContext());
  patterns.add<FoldSplatLoadPattern>(&getContext());
  if (failed(applyPatternsGreedily(module, std::move(patterns))))
    signalPassFailure();
}

} // namespace gpu
} // namespace triton
} // namespace mlir
"""

PASSES_TD = """\
#ifndef TRITONGPU_PASSES
#define TRITONGPU_PASSES

include "mlir/Pass/PassBase.td"

/* Passes of the GPU dialect; a stray { in this comment must not count. */
def TritonGPUCoalesce: Pass<"tritongpu-coalesce", "mlir::ModuleOp"> {
  let summary = "coalesce";

  let description = [{
    The pass picks layouts so that loads are coalesced, e.g. for
    `tt.load %ptr { cache = 1 };` the contiguous dimension goes first.
  }];

  let dependentDialects = ["mlir::triton::gpu::TritonGPUDialect"];
}

def TritonGPUPipeline : Pass<"tritongpu-pipeline", "mlir::ModuleOp"> {
  let summary = "pipeline";

  let description = [{
    Applies software pipelining to loops; a body like `scf.for { ... }` gets
    multi-buffered. Braces: }}} and semicolons ;;; stay inside this block.
  }];

  let options = [
    Option<"numStages", "num-stages", "int32_t", /*default*/"3",
           "number of pipeline stages">,
    Option<"dumpIntermediateSteps", "dump-intermediate-steps", "bool", /*default*/"false",
           "Dump intermediate steps">
  ];
}

// A pass with no body of its own: } in a line comment.
def TritonGPUPrefetch : Pass<"tritongpu-prefetch", "mlir::ModuleOp"> {
  let summary = "prefetch \\"{\\" operands";
  let constructor = "mlir::triton::gpu::createPrefetchPass()";
}

let hasSideEffects = 0 in {
  def TTG_Trait : NativeOpTrait<"TritonGPUTrait">;
  class TTG_Op<string mnemonic, list<Trait> traits = []> :
      Op<TritonGPU_Dialect, mnemonic, traits> {
    let extraClassDeclaration = [{ static bool isGpu() { return true; } }];
  }
}

#endif
"""

COMPILER_PY = '''\
from triton._C.libtriton import ir, passes


class FakeBackend:
    """A backend whose stages run Triton's pass pipelines."""

    def __init__(self, target):
        self.target = target
        self.binary_ext = "cubin"

    @staticmethod
    def make_ttir(mod, metadata, opt):
        pm = ir.pass_manager(mod.context)
        pm.enable_debug()
        passes.common.add_inliner(pm)
        passes.ttir.add_combine(pm)
        passes.common.add_canonicalizer(pm)
        pm.run(mod)
        return mod

    @staticmethod
    def make_ttgir(mod, metadata, opt, capability):
        pm = ir.pass_manager(mod.context)
        passes.ttir.add_convert_to_ttgpuir(pm, f"cuda:{capability}", opt.num_warps, 32, 1)
        passes.ttgpuir.add_coalesce(pm)
        passes.ttgpuir.add_remove_layout_conversions(pm)
        passes.ttgpuir.add_accelerate_matmul(pm)
        passes.ttgpuir.add_pipeline(pm, opt.num_stages, False)
        pm.run(mod)
        return mod

    def add_stages(self, stages, options, language):
        stages["ttir"] = lambda src, metadata: self.make_ttir(src, metadata, options)
        stages["ttgir"] = lambda src, metadata: self.make_ttgir(src, metadata, options, 90)


def describe(stage: str) -> str:
    return f"stage {stage}"


if __name__ == "__main__":
    context = ir.context()
    pm = ir.pass_manager(context)
    passes.ttir.add_combine(pm)
'''

LIT_TEST = """\
// RUN: triton-opt %s -split-input-file -tritongpu-coalesce -canonicalize | FileCheck %s
// RUN: triton-opt %s -split-input-file \\
// RUN:   --pass-pipeline='builtin.module(tritongpu-remove-layout-conversions{smoke=1})' \\
// RUN:   | FileCheck %s --check-prefix=RLC

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
// CHECK-LABEL: @first_case
tt.func @first_case(%arg0: !tt.ptr<f32>) {
  %0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
  tt.return
}
}

// -----

// CHECK-LABEL: @second_case
tt.func @second_case(%arg0: !tt.ptr<f16>, %arg1: i32) {
  %0 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<128x!tt.ptr<f16>>
  %1 = tt.splat %arg1 : i32 -> tensor<128xi32>
  tt.return
}

// -----

// CHECK-LABEL: @third_a
tt.func @third_a(%arg0: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %0 = arith.addi %arg0, %c1 : i32
  tt.return %0 : i32
}
// CHECK-LABEL: @third_b
tt.func @third_b(%arg0: i32) -> i32 {
  %c2 = arith.constant 2 : i32
  %0 = arith.muli %arg0, %c2 : i32
  tt.return %0 : i32
}
"""

GUIDE_MD = """\
# Guide

Short introduction to the guide, long enough to stand as a section of its own
once the heading is counted, so that it is not merged into the next one.

## Debugging

### IR dumps

Set `MLIR_ENABLE_DUMP=1` to print the IR before every pass. The dump header names
the pass, e.g. `IR Dump Before TritonGPUCoalesce`, which the registry maps to source.

```bash
# this is a shell comment, not a heading
MLIR_ENABLE_DUMP=1 python kernel.py 2> dump.txt
## neither is this
```

More text after the fence that still belongs to the IR dumps section.

## 调试

### 中间表示

设置环境变量 `MLIR_ENABLE_DUMP=1` 可以在每个编译阶段之前打印中间表示。昇腾后端的编译流程会经过
多个阶段，每个阶段都会输出对应的中间表示文件，便于定位性能问题和精度问题。这里是一段足够长的
中文说明文字，用来检查分块器能正确处理中文内容，并且不会把中文段落切得过大或者过小。
"""


def lines_of(text: str) -> list[str]:
    return text.split("\n")


def row_of(text: str, needle: str) -> int:
    """1-based line number of the first line containing `needle`."""
    for i, line in enumerate(lines_of(text), 1):
        if needle in line:
            return i
    raise AssertionError(f"{needle!r} not in fixture")


def assert_well_formed(result: ChunkResult, path: str, text: str, max_chars: int) -> None:
    """Every chunk: header first, body equal to its line range, kind known, size capped."""
    lines = lines_of(text)
    for c in result.chunks:
        head, _, body = c.text.partition("\n")
        assert head == header(path, c.scope, c.symbol)
        assert c.path == path and c.kind in KINDS
        assert 1 <= c.start_line <= c.end_line <= len(lines)
        assert body == "\n".join(lines[c.start_line - 1:c.end_line]).strip("\n")
        assert len(c.text) <= max_chars


def by_symbol(result: ChunkResult, symbol: str):
    found = [c for c in result.chunks if c.symbol == symbol]
    assert found, f"no chunk for {symbol}: {[c.symbol for c in result.chunks]}"
    return found[0]


# --- C++ -------------------------------------------------------------------------

@pytest.fixture(scope="module")
def cpp() -> ChunkResult:
    return chunk_file("lib/Coalesce.cpp", CPP_PASS, max_chars=700, min_chars=150)


def test_cpp_chunks_are_well_formed_and_parse_without_fallback(cpp):
    assert cpp.language == "cpp" and not cpp.fallback
    assert_well_formed(cpp, "lib/Coalesce.cpp", CPP_PASS, 700)


def test_cpp_pattern_struct_yields_a_matchandrewrite_method_chunk(cpp):
    c = by_symbol(cpp, "FoldSplatLoadPattern::matchAndRewrite")
    assert c.kind == "method"
    assert c.scope == "mlir::triton::gpu::FoldSplatLoadPattern"
    assert c.start_line <= row_of(CPP_PASS, "LogicalResult matchAndRewrite") <= c.end_line
    assert c.end_line >= row_of(CPP_PASS, "return success();")


def test_cpp_big_class_is_split_into_methods_that_keep_class_scope(cpp):
    pick = by_symbol(cpp, "LayoutPlanner::pickLayout")
    assert pick.kind == "method"
    assert pick.scope == "mlir::triton::gpu::LayoutPlanner"
    # the comment above the method travels with it
    assert pick.start_line <= row_of(CPP_PASS, "// Picks the blocked layout")
    assert not any(c.symbol == "LayoutPlanner" and c.kind == "class" and
                   c.start_line <= row_of(CPP_PASS, "Attribute pickLayout") <= c.end_line
                   and c is not pick for c in cpp.chunks)


def test_cpp_small_members_merge_with_their_siblings(cpp):
    holder = [c for c in cpp.chunks if "countChoices()" in c.text]
    assert len(holder) == 1
    assert len(holder[0].extra.get("symbols", [])) >= 2 or "recordChoice" in holder[0].text


def test_cpp_out_of_line_run_on_operation_is_a_method_chunk_with_pass_refs(cpp):
    c = by_symbol(cpp, "CoalescePass::runOnOperation")
    assert c.kind == "method" and c.scope == "mlir::triton::gpu"
    assert c.start_line == row_of(CPP_PASS, "void CoalescePass::runOnOperation() {")
    assert c.end_line >= row_of(CPP_PASS, "signalPassFailure();") + 1
    # the class declaring it derives from the generated base: the ref follows the method
    assert "TritonGPUCoalesceBase" in c.extra["pass_refs"]


def test_cpp_gen_pass_def_is_recorded_as_a_pass_ref(cpp):
    holders = [c for c in cpp.chunks if "GEN_PASS_DEF_TRITONGPUCOALESCE" in c.text]
    assert holders and "TRITONGPUCOALESCE" in holders[0].extra["pass_refs"]


def test_cpp_pass_argument_from_get_argument_goes_to_passes():
    src = """\
struct MyPass : public PassWrapper<MyPass, OperationPass<ModuleOp>> {
  StringRef getArgument() const final { return "my-test-pass"; }
  void runOnOperation() override { getOperation().walk([](Operation *op) {}); }
};
"""
    result = chunk_file("lib/My.cpp", src)
    assert any("my-test-pass" in c.passes for c in result.chunks)
    assert by_symbol(result, "MyPass::runOnOperation").kind == "method"


def test_cpp_oversized_function_is_split_at_statements_within_the_cap():
    body = "\n".join(f"  int v{i} = compute({i}, v{i - 1 if i else 0});" for i in range(120))
    src = f"int bigFunction() {{\n  int v = 0;\n{body}\n  return v;\n}}\n"
    result = chunk_file("lib/Big.cpp", src, max_chars=600)
    assert len(result.chunks) > 3
    assert {c.symbol for c in result.chunks} == {"bigFunction"}
    assert_well_formed(result, "lib/Big.cpp", src, 600)
    parts = [c.extra["part"] for c in result.chunks]
    assert parts[0] == f"1/{len(parts)}" and parts[-1] == f"{len(parts)}/{len(parts)}"


def test_broken_cpp_falls_back_to_line_windows():
    src = "}}}} ))) class ;; {{ template <<< >>> ::: ## \n" * 40 + "int ok( { ] ;\n" * 40
    result = chunk_file("lib/Broken.cpp", src, max_chars=500)
    assert result.fallback and result.language == "cpp"
    assert result.chunks and all(c.kind == "text" for c in result.chunks)
    assert result.chunks[0].start_line == 1 and result.chunks[-1].end_line == 80
    assert all(len(c.text) <= 500 for c in result.chunks)


def test_cpp_fallback_windows_end_after_closing_braces():
    garbage = "}}}} ))) class ;; {{ template <<< >>> ::: ## \n" * 6
    block = "KERNEL_ENTRY(copy) [aicore] {\n" + "".join(
        f"  auto v{i} = load<half>(src + {i}) @@ 8;\n" for i in range(8)) + "}\n"
    src = garbage + (block + "\n") * 6
    result = chunk_file("lib/Kernel.cpp", src, max_chars=800)
    assert result.fallback
    closing = {i for i, line in enumerate(lines_of(src), 1) if line == "}"}
    assert all(c.end_line in closing for c in result.chunks)
    assert_well_formed(result, "lib/Kernel.cpp", src, 800)


def test_deeply_nested_braces_do_not_recurse_to_death():
    src = "void f() {\n" + "{\n" * 20000 + "}\n" * 20000 + "}\n"
    result = chunk_file("lib/Deep.cpp", src)
    assert result.chunks
    assert all(len(c.text) <= 1800 for c in result.chunks)


# --- TableGen --------------------------------------------------------------------

@pytest.fixture(scope="module")
def td() -> ChunkResult:
    return chunk_file("include/Passes.td", PASSES_TD, max_chars=1800, min_chars=200)


def test_tablegen_pass_records_become_pass_defs_with_their_argument(td):
    assert td.language == "tablegen" and not td.fallback
    assert_well_formed(td, "include/Passes.td", PASSES_TD, 1800)
    defs = {c.symbol: c for c in td.chunks if c.kind == "pass_def"}
    assert set(defs) == {"TritonGPUCoalesce", "TritonGPUPipeline", "TritonGPUPrefetch"}
    assert defs["TritonGPUCoalesce"].passes == ["tritongpu-coalesce"]
    assert defs["TritonGPUPipeline"].passes == ["tritongpu-pipeline"]
    assert defs["TritonGPUPrefetch"].passes == ["tritongpu-prefetch"]


def test_tablegen_code_blocks_with_braces_stay_inside_their_record(td):
    pipeline = by_symbol(td, "TritonGPUPipeline")
    assert pipeline.start_line == row_of(PASSES_TD, "def TritonGPUPipeline")
    assert pipeline.end_line == row_of(PASSES_TD, '"Dump intermediate steps">') + 2
    assert "Braces: }}} and semicolons ;;;" in pipeline.text
    assert 'Option<"numStages", "num-stages"' in pipeline.text
    coalesce = by_symbol(td, "TritonGPUCoalesce")
    assert "let summary = \"coalesce\";" in coalesce.text
    assert coalesce.end_line == row_of(PASSES_TD, "TritonGPUDialect\"];") + 1


def test_tablegen_records_in_a_let_block_are_scoped_by_the_let(td):
    records = [c for c in td.chunks if c.kind == "record"]
    assert records
    assert all(c.scope == "let hasSideEffects = 0 in" for c in records)
    names = {n for c in records for n in (c.extra.get("symbols") or [c.symbol])}
    assert names == {"TTG_Trait", "TTG_Op"}
    op = [c for c in records if "TTG_Op" in c.text][0]
    assert op.end_line >= row_of(PASSES_TD, "static bool isGpu()") + 1


# --- Python ----------------------------------------------------------------------

@pytest.fixture(scope="module")
def py() -> ChunkResult:
    return chunk_file("third_party/fake/backend/compiler.py", COMPILER_PY, max_chars=700,
                      min_chars=150)


def test_python_stage_builders_are_pipeline_chunks_with_pass_calls(py):
    assert py.language == "python" and not py.fallback
    assert_well_formed(py, "third_party/fake/backend/compiler.py", COMPILER_PY, 700)
    ttgir = by_symbol(py, "FakeBackend.make_ttgir")
    assert ttgir.kind == "pipeline" and ttgir.scope == "FakeBackend"
    assert ttgir.extra["pass_calls"][:2] == ["ttir.add_convert_to_ttgpuir", "ttgpuir.add_coalesce"]
    assert ttgir.start_line == row_of(COMPILER_PY, "def make_ttgir") - 1  # with its decorator


def test_python_add_stages_is_a_pipeline_method(py):
    stages = [c for c in py.chunks if "def add_stages" in c.text]
    assert len(stages) == 1 and stages[0].kind == "pipeline"
    assert "FakeBackend.add_stages" in (stages[0].extra.get("symbols") or [stages[0].symbol])


def test_python_module_code_with_pass_calls_is_a_pipeline_chunk(py):
    tail = [c for c in py.chunks if "__main__" in c.text]
    assert len(tail) == 1 and tail[0].extra["pass_calls"] == ["ttir.add_combine"]
    assert tail[0].kind in ("pipeline", "function")
    assert tail[0].end_line == len(COMPILER_PY.rstrip("\n").split("\n"))


def test_python_small_class_is_one_class_chunk():
    src = 'class Options:\n    """Knobs."""\n\n    num_warps: int = 4\n    num_stages: int = 3\n'
    result = chunk_file("pkg/options.py", src)
    assert [(c.kind, c.symbol, c.start_line, c.end_line) for c in result.chunks] == [
        ("class", "Options", 1, 5)]


# --- MLIR lit tests -------------------------------------------------------------

@pytest.fixture(scope="module")
def lit() -> ChunkResult:
    return chunk_file("test/TritonGPU/coalesce.mlir", LIT_TEST, max_chars=1800, min_chars=50)


def test_lit_test_is_split_at_separators_with_run_metadata(lit):
    assert lit.language == "mlir" and not lit.fallback
    assert_well_formed(lit, "test/TritonGPU/coalesce.mlir", LIT_TEST, 1800)
    assert [c.symbol for c in lit.chunks] == ["first_case", "second_case", "third_a, third_b"]
    assert all(c.kind == "lit_test" for c in lit.chunks)
    second = lit.chunks[1]
    assert second.start_line == row_of(LIT_TEST, "CHECK-LABEL: @second_case")
    assert second.end_line == row_of(LIT_TEST, "CHECK-LABEL: @third_a") - 4  # its closing }
    assert lit.chunks[2].extra["symbols"] == ["third_a", "third_b"]


def test_lit_test_run_lines_give_passes_and_commands(lit):
    c = lit.chunks[0]
    assert c.passes == ["tritongpu-coalesce", "canonicalize", "tritongpu-remove-layout-conversions"]
    assert len(c.extra["run"]) == 2
    assert c.extra["run"][1].startswith("triton-opt %s -split-input-file --pass-pipeline=")


def test_big_lit_section_is_split_per_function():
    result = chunk_file("test/x.mlir", LIT_TEST, max_chars=330, min_chars=0)
    third = [c for c in result.chunks if c.start_line > row_of(LIT_TEST, "@second_case")]
    assert [c.symbol for c in third] == ["third_a", "third_b"]
    assert third[1].start_line == row_of(LIT_TEST, "CHECK-LABEL: @third_b")
    assert all(len(c.text) <= 330 for c in result.chunks)


# --- Markdown --------------------------------------------------------------------

@pytest.fixture(scope="module")
def md() -> ChunkResult:
    return chunk_file("docs/guide.md", GUIDE_MD, max_chars=1800, min_chars=100)


def test_markdown_sections_carry_their_heading_path(md):
    assert md.language == "markdown" and not md.fallback
    assert_well_formed(md, "docs/guide.md", GUIDE_MD, 1800)
    dumps = by_symbol(md, "IR dumps")
    assert dumps.kind == "doc_section" and dumps.scope == "Guide > Debugging > IR dumps"
    # a heading with no text of its own folds into its child
    assert dumps.start_line == row_of(GUIDE_MD, "## Debugging")
    assert dumps.end_line == row_of(GUIDE_MD, "More text after the fence")


def test_markdown_hash_lines_inside_fences_are_not_headings(md):
    symbols = {c.symbol for c in md.chunks}
    assert not any("shell comment" in s or "neither is this" in s for s in symbols)
    assert any("## neither is this" in c.text for c in md.chunks)


def test_markdown_chinese_sections_are_chunked_with_their_path(md):
    zh = by_symbol(md, "中间表示")
    assert zh.scope == "Guide > 调试 > 中间表示"
    assert "昇腾后端" in zh.text and zh.end_line == len(GUIDE_MD.rstrip("\n").split("\n"))


def test_chinese_text_is_weighted_so_chunks_stay_small():
    # MiniLM reads each CJK character as a token: a character costs 3 units of the budget
    para = "设置环境变量可以在每个编译阶段之前打印中间表示。" * 3
    doc = "# 标题\n\n" + "\n\n".join([para] * 12) + "\n"
    result = chunk_file("docs/zh.md", doc, max_chars=600)
    assert_well_formed(result, "docs/zh.md", doc, 600)
    assert len(result.chunks) >= 5
    assert all(text_size(c.text, weigh_cjk=True) <= 600 for c in result.chunks)
    assert all(c.scope == "标题" for c in result.chunks)


def test_a_long_chinese_line_is_cut_by_weighted_size():
    doc = "# 标题\n\n" + "中间表示" * 400 + "\n"
    result = chunk_file("docs/zh.md", doc, max_chars=600)
    assert len(result.chunks) > 4
    assert all(text_size(c.text, weigh_cjk=True) <= 600 for c in result.chunks)


def test_rst_is_split_at_underlined_titles():
    doc = "Triton\n======\n\nIntro text.\n\nInstall\n-------\n\nRun pip.\n"
    result = chunk_file("docs/index.rst", doc, min_chars=0)
    assert [(c.scope, c.start_line) for c in result.chunks] == [
        ("Triton", 1), ("Triton > Install", 6)]


# --- Robustness and dispatch -----------------------------------------------------

def test_binary_input_yields_no_chunks():
    assert chunk_file("lib/blob.cpp", "abc\x00def") == ChunkResult([], False, "")


def test_huge_single_line_is_capped_and_does_not_hang():
    text = "x = '" + "a" * 5_000_000 + "'\n"
    result = chunk_file("gen/huge.py", text)
    assert result.fallback
    assert 0 < len(result.chunks) <= 64
    assert all(len(c.text) <= 1800 for c in result.chunks)
    assert result.chunks[-1].extra.get("truncated") is True


def test_unknown_language_uses_line_windows_with_overlap():
    text = "\n".join(f"line {i} of a config file with some words" for i in range(200)) + "\n"
    result = chunk_file("CMakeLists.txt", text, max_chars=500)
    assert result.fallback and result.language == "text"
    first, second = result.chunks[0], result.chunks[1]
    assert second.start_line <= first.end_line  # windows overlap a little
    assert result.chunks[-1].end_line == 200


def test_language_for_maps_extensions_and_skips_generated_inc():
    assert language_for("lib/Coalesce.cpp") == "cpp"
    assert language_for("include/Passes.h") == "cpp"
    assert language_for("include/Passes.td") == "tablegen"
    assert language_for("test/a.mlir") == "mlir"
    assert language_for("python/x.py") == "python"
    assert language_for("docs/README.MD") == "markdown"
    assert language_for("include/Passes.h.inc") is None
    assert language_for("CMakeLists.txt") is None


# --- Real sources from the local mirror ------------------------------------------

def _mirror_file(path: str) -> str:
    return subprocess.run(["git", "-C", str(MIRROR), "show", f"HEAD:{path}"],
                          capture_output=True, text=True, check=True).stdout


@pytest.mark.skipif(not MIRROR.exists(), reason="triton-ascend mirror not present")
def test_real_triton_passes_td_and_coalesce_cpp():
    td_path = "include/triton/Dialect/TritonGPU/Transforms/Passes.td"
    td_text = _mirror_file(td_path)
    td_result = chunk_file(td_path, td_text)
    assert_well_formed(td_result, td_path, td_text, 1800)
    coalesce = [c for c in td_result.chunks if c.passes == ["tritongpu-coalesce"]]
    assert coalesce and coalesce[0].kind == "pass_def"
    assert coalesce[0].symbol == "TritonGPUCoalesce"

    cpp_path = "lib/Dialect/TritonGPU/Transforms/Coalesce.cpp"
    cpp_text = _mirror_file(cpp_path)
    cpp_result = chunk_file(cpp_path, cpp_text)
    assert not cpp_result.fallback
    assert_well_formed(cpp_result, cpp_path, cpp_text, 1800)
    run = [c for c in cpp_result.chunks if c.symbol.endswith("runOnOperation")]
    assert run and run[0].kind == "method"
    assert "TritonGPUCoalesceBase" in run[0].extra["pass_refs"]
