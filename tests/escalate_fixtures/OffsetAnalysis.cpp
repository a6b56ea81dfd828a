// Offset analysis of the fixture Ascend front end (written for the tests): which pointer
// offsets are structured (base + range * stride) and which are not.
#include "TritonToUnstructure/OffsetAnalysis.h"

namespace mlir::triton {

void parseArithOp(Operation *arithOp, OffsetMap &offsetMap) {
  if (auto addIOp = dyn_cast<arith::AddIOp>(arithOp)) {
    parseAddI(addIOp, offsetMap);
  } else if (auto remSIOp = dyn_cast<arith::RemSIOp>(arithOp)) {
    parseBinaryOp(remSIOp, offsetMap);
  } else if (auto divSIOp = dyn_cast<arith::DivSIOp>(arithOp)) {
    parseBinaryOp(divSIOp, offsetMap);
  } else if (auto mulIOp = dyn_cast<arith::MulIOp>(arithOp)) {
    parseMulI(mulIOp, offsetMap);
  } else if (auto selectOp = dyn_cast<arith::SelectOp>(arithOp)) {
    parseSelect(selectOp, offsetMap);
  }
}

void parseTritonOp(Operation *tritonOp, OffsetMap &offsetMap) {
  if (auto addPtrOp = dyn_cast<triton::AddPtrOp>(tritonOp)) {
    parseAddPtr(addPtrOp, offsetMap);
  } else if (auto loadOp = dyn_cast<triton::LoadOp>(tritonOp)) {
    parseLoad(loadOp, offsetMap);
  }
}

// A sum of two structured offsets stays structured.
void parseAddI(arith::AddIOp op, OffsetMap &offsetMap) {
  PtrOffsetInfo lhs = offsetMap.at(op.getLhs());
  PtrOffsetInfo rhs = offsetMap.at(op.getRhs());
  if (lhs.isStructured() && rhs.isStructured())
    offsetMap[op.getResult()].setStructured(lhs.getRank());
  else
    offsetMap[op.getResult()].setUnstructured(lhs.getRank());
}

// Division and remainder: only scalar-like operands keep a scalar-like result.
template <typename BinOpTy>
void parseBinaryOp(BinOpTy op, OffsetMap &offsetMap) {
  PtrOffsetInfo lhs = offsetMap.at(op.getLhs());
  PtrOffsetInfo rhs = offsetMap.at(op.getRhs());
  PtrOffsetInfo dst;
  dst.setScalarLike(lhs.isScalarLike() && rhs.isScalarLike());
  if (dst.isScalarLike())
    dst.setStructured(lhs.getRank(), PtrOffsetInfo::AxisInfo::scalarlike);
  else
    dst.setUnstructured(lhs.getRank());
  offsetMap[op->getResult(0)] = dst;
}

// A select of two offset tensors is structured only when every operand is scalar-like.
void parseSelect(arith::SelectOp op, OffsetMap &offsetMap) {
  PtrOffsetInfo t = offsetMap.at(op.getTrueValue());
  PtrOffsetInfo f = offsetMap.at(op.getFalseValue());
  bool dstIsScalar = t.isScalarLike() && f.isScalarLike();
  if (!dstIsScalar)
    offsetMap[op.getResult()].setUnstructured(t.getRank());
}

// The result of a tensor load is an arbitrary value.
void parseLoad(triton::LoadOp op, OffsetMap &offsetMap) {
  auto tensorType = dyn_cast<RankedTensorType>(op.getType());
  if (!tensorType)
    return;
  offsetMap[op.getResult()].setUnstructured(tensorType.getRank());
}

} // namespace mlir::triton
