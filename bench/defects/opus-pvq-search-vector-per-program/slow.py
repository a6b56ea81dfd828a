"""CELT PVQ search: K greedy pulses per band vector, signs restored at the end."""
import torch
import triton
import triton.language as tl


@triton.jit
def _pvq_search(x_ptr, iy_ptr, N, K, BLOCK_N: tl.constexpr):
    v = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    ok = cols < N
    x = tl.load(x_ptr + v * N + cols, mask=ok, other=0.0)
    a = tl.abs(x)
    iy = tl.zeros([BLOCK_N], dtype=tl.int32)
    xy = 0.0
    yy = 0.0
    for _ in range(K):
        yy1 = yy + 1.0
        y2 = 2.0 * iy.to(tl.float32)
        rxy = xy + a
        score = tl.div_rn(rxy * rxy, yy1 + y2)
        score = tl.where(ok, score, -1.0)
        best = tl.argmax(score, axis=0)
        hit = cols == best
        xy += tl.sum(tl.where(hit, a, 0.0), axis=0)
        yy = yy1 + tl.sum(tl.where(hit, y2, 0.0), axis=0)
        iy += hit.to(tl.int32)
    tl.store(iy_ptr + v * N + cols, tl.where(x < 0, -iy, iy), mask=ok)


def run(x: torch.Tensor, k: int) -> torch.Tensor:
    v, n = x.shape
    iy = torch.empty((v, n), device=x.device, dtype=torch.int32)
    _pvq_search[(v,)](x, iy, n, k, BLOCK_N=triton.next_power_of_2(n), num_warps=4)
    return iy
