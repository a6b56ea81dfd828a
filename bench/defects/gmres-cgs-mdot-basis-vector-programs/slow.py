"""GMRES classical Gram-Schmidt: h[j] = <v_j, w> for the first k Krylov basis vectors (VecMDot)."""
import torch
import triton
import triton.language as tl

BLOCK = 1024
NUM_WARPS = 4


@triton.jit
def _masked_product(v_row, w_ptr, offs, n):
    m = offs < n
    return tl.load(v_row + offs, mask=m, other=0.0) * tl.load(w_ptr + offs, mask=m, other=0.0)


@triton.jit
def cgs_mdot_kernel(v_ptr, w_ptr, h_ptr, n, stride_v, BLOCK: tl.constexpr):
    j = tl.program_id(0)
    v_row = v_ptr + j * stride_v
    acc = tl.zeros([BLOCK], dtype=tl.float64)
    for start in range(0, n, BLOCK):
        acc += _masked_product(v_row, w_ptr, start + tl.arange(0, BLOCK), n)
    tl.store(h_ptr + j, tl.sum(acc, axis=0))


def run(v: torch.Tensor, w: torch.Tensor, k: int) -> torch.Tensor:
    n = w.shape[0]
    h = torch.empty(k, device=w.device, dtype=w.dtype)
    cgs_mdot_kernel[(k,)](v, w, h, n, v.stride(0), BLOCK=BLOCK, num_warps=NUM_WARPS)
    return h
