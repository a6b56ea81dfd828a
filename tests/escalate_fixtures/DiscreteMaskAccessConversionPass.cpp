#include "DiscreteMaskAccessConversion/Passes.h"

namespace mlir::triton {

#define GEN_PASS_DEF_DISCRETEMASKACCESSCONVERSION
#include "DiscreteMaskAccessConversion/Passes.h.inc"

// A mask is continuous when it compares a contiguous range with a bound; anything else is
// discrete and the access becomes a full load followed by arith.select.
static bool isDiscreteMask(Value mask, MaskState &state) {
  if (!mask)
    return false;
  if (failed(state.parse(mask)))
    return true;
  return !state.isContinuous();
}

struct DiscreteMaskAccessConversionPass
    : public impl::DiscreteMaskAccessConversionBase<DiscreteMaskAccessConversionPass> {
  void runOnOperation() override {
    getOperation().walk([&](LoadOp load) {
      MaskState state;
      if (isDiscreteMask(load.getMask(), state))
        rewriteToFullLoadAndSelect(load);
    });
  }
};

} // namespace mlir::triton
