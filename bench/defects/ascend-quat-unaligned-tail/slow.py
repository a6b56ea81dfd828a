"""Quaternion normalisation over [BLOCK, 4] tiles: a 16-byte last axis, padded to 32 bytes in the UB."""
import torch
import triton
import triton.language as tl


@triton.jit
def quat_normalize_kernel(q_ptr, out_ptr, n, BLOCK: tl.constexpr):
    rows = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    comp = tl.arange(0, 4)
    offs = rows[:, None] * 4 + comp[None, :]
    mask = rows[:, None] < n
    q = tl.load(q_ptr + offs, mask=mask, other=1.0)
    inv = 1.0 / tl.sqrt(tl.sum(q * q, axis=1))
    tl.store(out_ptr + offs, q * inv[:, None], mask=mask)


def run(q: torch.Tensor) -> torch.Tensor:
    n = q.shape[0]
    out = torch.empty_like(q)
    quat_normalize_kernel[(triton.cdiv(n, 1024),)](q, out, n, BLOCK=1024)
    return out
