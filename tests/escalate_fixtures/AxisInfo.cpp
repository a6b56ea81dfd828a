#include "triton/Analysis/AxisInfo.h"

namespace mlir::triton {

// Contiguity of a sum: a contiguous run plus a constant run stays contiguous for the
// shorter of the two runs.
int64_t AddOpAxisInfoVisitor::getContiguity(const AxisInfo &lhs, const AxisInfo &rhs,
                                            int dim) {
  return std::max(gcd(lhs.getContiguity(dim), rhs.getConstancy(dim)),
                  gcd(lhs.getConstancy(dim), rhs.getContiguity(dim)));
}

// Divisibility of a sum is the gcd of the operands' divisibility; unknown operands give 1.
int64_t AddOpAxisInfoVisitor::getDivisibility(const AxisInfo &lhs, const AxisInfo &rhs,
                                              int dim) {
  if (!lhs.isKnown() || !rhs.isKnown())
    return 1;
  return gcd(lhs.getDivisibility(dim), rhs.getDivisibility(dim));
}

// A kernel argument is divisible by 16 only when the launcher specialised it so.
AxisInfo AxisInfo::getPessimisticValueState(Value value) {
  int64_t divisibility = 1;
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    auto fn = cast<FunctionOpInterface>(arg.getOwner()->getParentOp());
    if (auto attr = fn.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(), "tt.divisibility"))
      divisibility = attr.getValue().getZExtValue();
  }
  return AxisInfo(/*contiguity=*/{1}, /*divisibility=*/{divisibility}, /*constancy=*/{1});
}

void AxisInfo::print(raw_ostream &os) const {
  os << "contiguity = [" << contiguity << "], divisibility = [" << divisibility
     << "], constancy = [" << constancy << "]";
}

} // namespace mlir::triton
