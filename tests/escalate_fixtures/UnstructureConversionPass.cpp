// The fixture triton-to-unstructure pass (written for the tests): accesses whose offsets the
// offset analysis cannot prove structured become loops over single elements.
#include "TritonToUnstructure/OffsetAnalysis.h"

namespace mlir::triton {

LogicalResult UnstructuredMemAccessConverter::matchAndRewrite(Operation *op,
                                                              PatternRewriter &rewriter) const {
  PtrOffsetInfo ptrOffsetInfo = offsetMap.at(op->getOperand(0));
  if (ptrOffsetInfo.isStructured())
    return failure();
  for (int i = 0; i < ptrOffsetInfo.getRank(); ++i) {
    if (!ptrOffsetInfo.isStructured(i))
      scalarizeDim(op, i, rewriter);
  }
  return success();
}

struct TritonToUnstructurePass : public impl::TritonToUnstructureBase<TritonToUnstructurePass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<UnstructuredMemAccessConverter>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace mlir::triton
