"""Baseline weight_norm (dim 0): one program per row, 4096-column chunks, a norm loop then a scaling loop."""
import torch
import triton
import triton.language as tl


@triton.heuristics({"BLOCK": lambda args: min(4096, triton.next_power_of_2(args["K"]))})
@triton.jit
def weight_norm_kernel(v_ptr, g_ptr, w_ptr, norm_ptr, K, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, K, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        v = tl.load(v_ptr + row * K + cols, mask=cols < K, other=0.0).to(tl.float32)
        acc += v * v
    norm = tl.sqrt(tl.sum(acc, axis=0))
    tl.store(norm_ptr + row, norm)
    scale = tl.load(g_ptr + row) / norm
    for start in range(0, K, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        v = tl.load(v_ptr + row * K + cols, mask=cols < K, other=0.0).to(tl.float32)
        tl.store(w_ptr + row * K + cols, (v * scale).to(w_ptr.dtype.element_ty), mask=cols < K)


def run(v: torch.Tensor, g: torch.Tensor) -> tuple:
    N, K = v.shape
    w = torch.empty_like(v)
    norm = torch.empty((N, 1), device=v.device, dtype=torch.float32)
    weight_norm_kernel[(N,)](v, g, w, norm, K, num_warps=8)
    return w, norm
