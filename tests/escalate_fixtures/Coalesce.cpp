#include "triton/Analysis/AxisInfo.h"
#include "triton/Dialect/TritonGPU/Transforms/Passes.h"

#define DEBUG_TYPE "tritongpu-coalesce"
#define LDBG(X) LLVM_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "]: " << X << "\n")

namespace mlir::triton::gpu {

#define GEN_PASS_DEF_TRITONGPUCOALESCE
#include "triton/Dialect/TritonGPU/Transforms/Passes.h.inc"

// Access tracing for debugging the coalescing of loads and stores. The contiguity and the
// divisibility of the pointer decide how many elements each thread owns; a runtime stride
// with no divisibility hint gives contiguity 1, which is why such loads stay scalar. This
// function only prints those facts; it decides nothing.
static void traceAccess(Operation *op, AxisInfo &info, unsigned order0) {
  LDBG("access: " << *op);
  LDBG("contiguity along the fast axis: " << info.getContiguity(order0));
  LDBG("divisibility along the fast axis: " << info.getDivisibility(order0));
  LDBG("vector width follows from contiguity and divisibility");
}

// How many consecutive elements one thread loads or stores with one instruction.
static unsigned perThreadVectorWidth(AxisInfo &info, unsigned order0, unsigned elemBits,
                                     unsigned fastDimSize) {
  unsigned elemBytes = std::max(elemBits / 8, 1u);
  unsigned divisibilityBytes = info.getDivisibility(order0);
  if (divisibilityBytes < elemBytes)
    return 1;
  unsigned maxMultiple = divisibilityBytes / elemBytes;
  unsigned maxContig = std::min<unsigned>(info.getContiguity(order0), fastDimSize);
  unsigned alignment = std::min(maxMultiple, maxContig);
  return std::min(alignment, 128 / elemBits);
}

struct CoalescePass : public impl::TritonGPUCoalesceBase<CoalescePass> {
  void runOnOperation() override {
    ModuleOp mod = getOperation();
    ModuleAxisInfoAnalysis axisInfo(mod);
    mod.walk([&](Operation *op) {
      Value ptr = getMemAccessPtr(op);
      if (!ptr)
        return;
      auto type = cast<RankedTensorType>(ptr.getType());
      AxisInfo &info = *axisInfo.getAxisInfo(ptr);
      SmallVector<unsigned> order = getOrderFromContiguity(info.getContiguity());
      traceAccess(op, info, order[0]);
      unsigned width = perThreadVectorWidth(info, order[0], getElementBitWidth(type),
                                            type.getShape()[order[0]]);
      setBlockedLayout(op, order, width);
    });
  }
};

} // namespace mlir::triton::gpu
