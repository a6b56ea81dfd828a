"""weight_norm (dim 0): one program per row holding the whole row, its block size chosen by a heuristic as next_power_of_2(K)."""
import torch
import triton
import triton.language as tl


@triton.heuristics({"BLOCK": lambda args: triton.next_power_of_2(args["K"])})
@triton.jit
def weight_norm_kernel(v_ptr, g_ptr, w_ptr, norm_ptr, K, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < K
    v = tl.load(v_ptr + row * K + cols, mask=m, other=0.0).to(tl.float32)
    norm = tl.sqrt(tl.sum(v * v, axis=0))
    tl.store(norm_ptr + row, norm)
    scale = tl.load(g_ptr + row) / norm
    tl.store(w_ptr + row * K + cols, (v * scale).to(w_ptr.dtype.element_ty), mask=m)


def run(v: torch.Tensor, g: torch.Tensor) -> tuple:
    N, K = v.shape
    w = torch.empty_like(v)
    norm = torch.empty((N, 1), device=v.device, dtype=torch.float32)
    weight_norm_kernel[(N,)](v, g, w, norm, K)
    return w, norm
