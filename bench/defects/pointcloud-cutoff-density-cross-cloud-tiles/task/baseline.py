"""Cosine-cutoff density of batched point clouds: each query tile walks only its own clouds' key blocks."""
import math

import torch
import triton
import triton.language as tl


@triton.jit
def _cosine_cutoff(d2, r, inv_r_pi):
    d = tl.sqrt(d2)
    return tl.where(d < r, 0.5 * (tl.cos(d * inv_r_pi) + 1.0), 0.0)


@triton.jit
def cutoff_density_kernel(pos_ptr, batch_ptr, ptr_ptr, out_ptr, N, r, inv_r_pi,
                          BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BLOCK_M + tl.arange(0, BLOCK_M)
    rm = rows < N
    xi = tl.load(pos_ptr + rows * 3 + 0, mask=rm, other=0.0)
    yi = tl.load(pos_ptr + rows * 3 + 1, mask=rm, other=0.0)
    zi = tl.load(pos_ptr + rows * 3 + 2, mask=rm, other=0.0)
    bi = tl.load(batch_ptr + rows, mask=rm, other=-1)
    first = tl.load(batch_ptr + pid * BLOCK_M)
    last = tl.load(batch_ptr + tl.minimum(pid * BLOCK_M + BLOCK_M, N) - 1)
    lo = tl.load(ptr_ptr + first)
    hi = tl.load(ptr_ptr + last + 1)
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for start in range(lo, hi, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        cm = cols < hi
        xj = tl.load(pos_ptr + cols * 3 + 0, mask=cm, other=0.0)
        yj = tl.load(pos_ptr + cols * 3 + 1, mask=cm, other=0.0)
        zj = tl.load(pos_ptr + cols * 3 + 2, mask=cm, other=0.0)
        bj = tl.load(batch_ptr + cols, mask=cm, other=-2)
        dx = xi[:, None] - xj[None, :]
        dy = yi[:, None] - yj[None, :]
        dz = zi[:, None] - zj[None, :]
        d2 = dx * dx + dy * dy + dz * dz
        w = _cosine_cutoff(d2, r, inv_r_pi)
        pair = (bi[:, None] == bj[None, :]) & (rows[:, None] != cols[None, :])
        acc += tl.where(pair, w, 0.0)
    tl.store(out_ptr + rows, tl.sum(acc, axis=1), mask=rm)


def run(pos: torch.Tensor, batch: torch.Tensor, ptr: torch.Tensor, r: float) -> torch.Tensor:
    n = pos.shape[0]
    out = torch.empty(n, device=pos.device, dtype=torch.float32)
    BLOCK_M, BLOCK_N = 64, 64
    grid = (triton.cdiv(n, BLOCK_M),)
    cutoff_density_kernel[grid](pos, batch, ptr, out, n, r, math.pi / r, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N,
                                num_warps=4)
    return out
