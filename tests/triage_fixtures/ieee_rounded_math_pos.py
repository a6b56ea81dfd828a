# backend: cuda
import torch
import triton
import triton.language as tl


@triton.jit
def _pair(q, r2):
    return tl.div_rn(q, tl.sqrt_rn(r2))  # expect: cuda-ieee-rounded-math


@triton.jit
def potential_kernel(p_ptr, a_ptr, q_ptr, out_ptr, n_atoms, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(p_ptr + i)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for j in range(n_atoms):
        d = x - tl.load(a_ptr + j)
        acc += _pair(tl.load(q_ptr + j), d * d + 1e-6)
    tl.store(out_ptr + i, acc)


def run(p, a, q):
    out = torch.empty_like(p)
    potential_kernel[(p.numel() // 256,)](p, a, q, out, a.numel(), BLOCK=256)
    return out
