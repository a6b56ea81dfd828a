include "mlir/Pass/PassBase.td"

def TritonGPUCoalesce : Pass<"tritongpu-coalesce", "mlir::ModuleOp"> {
  let summary = "coalesce global memory accesses";
  let description = [{
    Chooses a blocked layout for every load and store so that each thread owns a run of
    consecutive elements along the most contiguous axis; the run length is bounded by the
    contiguity and divisibility that axis analysis proves for the pointer.
  }];
  let dependentDialects = ["mlir::triton::gpu::TritonGPUDialect"];
}

def TritonGPUCoalesceAsyncCopy : Pass<"tritongpu-coalesce-async-copy", "mlir::ModuleOp"> {
  let summary = "shrink the per-thread width of async copies to what cp.async supports";
}

def TritonGPURemoveLayoutConversions : Pass<"tritongpu-remove-layout-conversions", "mlir::ModuleOp"> {
  let summary = "remove superfluous layout conversions";
}

def TritonGPUAccelerateMatmul : Pass<"tritongpu-accelerate-matmul", "mlir::ModuleOp"> {
  let summary = "pick an MMA encoding for tl.dot";
}

def TritonGPUPipeline : Pass<"tritongpu-pipeline", "mlir::ModuleOp"> {
  let summary = "software pipelining of loops with async copies";
  let options = [
    Option<"numStages", "num-stages", "int32_t", /*default*/"3", "number of pipeline stages">
  ];
}
