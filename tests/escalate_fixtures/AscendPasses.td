include "mlir/Pass/PassBase.td"

def DiscreteMaskAccessConversion : Pass<"discrete-mask-access-conversion", "mlir::ModuleOp"> {
  let summary = "turn loads and stores with a discrete mask into a full access plus select";
}

def TritonToUnstructure : Pass<"triton-to-unstructure", "mlir::ModuleOp"> {
  let summary = "convert memory accesses whose offsets are not structured into scalar loops";
}
