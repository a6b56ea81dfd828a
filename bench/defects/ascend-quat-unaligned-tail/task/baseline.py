"""Baseline for the local quat_normalize task: flat aligned 1-D tile, reshaped to [BLOCK, 4] on chip."""
import torch
import triton
import triton.language as tl


@triton.jit
def quat_normalize_kernel(q_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * (4 * BLOCK) + tl.arange(0, 4 * BLOCK)
    mask = offs < 4 * n
    flat = tl.load(q_ptr + offs, mask=mask, other=1.0)
    q = tl.reshape(flat, (BLOCK, 4))
    inv = 1.0 / tl.sqrt(tl.sum(q * q, axis=1))
    tl.store(out_ptr + offs, tl.reshape(q * inv[:, None], (4 * BLOCK,)), mask=mask)


def run(q: torch.Tensor) -> torch.Tensor:
    n = q.shape[0]
    out = torch.empty_like(q)
    quat_normalize_kernel[(triton.cdiv(n, 1024),)](q, out, n, BLOCK=1024)
    return out
