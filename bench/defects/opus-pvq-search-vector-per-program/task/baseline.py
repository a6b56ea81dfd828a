"""CELT PVQ search: K greedy pulses per band vector, signs restored at the end."""
import torch
import triton
import triton.language as tl

ROWS = 64


@triton.jit
def _pvq_search(x_ptr, iy_ptr, V, N, K, ROWS: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    cols = tl.arange(0, BLOCK_N)
    ok = (rows[:, None] < V) & (cols[None, :] < N)
    offs = rows[:, None] * N + cols[None, :]
    x = tl.load(x_ptr + offs, mask=ok, other=0.0)
    a = tl.abs(x)
    iy = tl.zeros([ROWS, BLOCK_N], dtype=tl.int32)
    xy = tl.zeros([ROWS], dtype=tl.float32)
    yy = tl.zeros([ROWS], dtype=tl.float32)
    for _ in range(K):
        yy1 = yy + 1.0
        y2 = 2.0 * iy.to(tl.float32)
        rxy = xy[:, None] + a
        score = tl.div_rn(rxy * rxy, yy1[:, None] + y2)
        score = tl.where(ok, score, -1.0)
        best = tl.argmax(score, axis=1)
        hit = cols[None, :] == best[:, None]
        xy += tl.sum(tl.where(hit, a, 0.0), axis=1)
        yy = yy1 + tl.sum(tl.where(hit, y2, 0.0), axis=1)
        iy += hit.to(tl.int32)
    tl.store(iy_ptr + offs, tl.where(x < 0, -iy, iy), mask=ok)


def run(x: torch.Tensor, k: int) -> torch.Tensor:
    v, n = x.shape
    iy = torch.empty((v, n), device=x.device, dtype=torch.int32)
    grid = (triton.cdiv(v, ROWS),)
    _pvq_search[grid](x, iy, v, n, k, ROWS=ROWS, BLOCK_N=triton.next_power_of_2(n), num_warps=4)
    return iy
