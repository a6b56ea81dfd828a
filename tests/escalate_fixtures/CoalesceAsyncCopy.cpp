#include "triton/Dialect/TritonGPU/Transforms/Passes.h"

namespace mlir::triton::gpu {

#define GEN_PASS_DEF_TRITONGPUCOALESCEASYNCCOPY
#include "triton/Dialect/TritonGPU/Transforms/Passes.h.inc"

// cp.async copies 4, 8 or 16 bytes per thread; wider per-thread runs of contiguity are split.
struct ClipAsyncCopyWidth : public OpRewritePattern<AsyncCopyGlobalToLocalOp> {
  LogicalResult matchAndRewrite(AsyncCopyGlobalToLocalOp copy,
                                PatternRewriter &rewriter) const override {
    unsigned contiguity = getContiguityOfCopy(copy);
    unsigned elemBits = getElementBitWidth(copy.getSrc().getType());
    if (contiguity * elemBits <= 128)
      return failure();
    splitCopy(copy, 128 / elemBits, rewriter);
    return success();
  }
};

struct CoalesceAsyncCopyPass
    : public impl::TritonGPUCoalesceAsyncCopyBase<CoalesceAsyncCopyPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ClipAsyncCopyWidth>(&getContext());
    (void)applyPatternsGreedily(getOperation(), std::move(patterns));
  }
};

} // namespace mlir::triton::gpu
