"""Whisper word-timestamp DTW: one program sweeps every anti-diagonal of the cost matrix, one lane per
token row, with the two previous diagonals kept in a diagonal-major scratch and a CTA barrier per step."""
import torch
import triton
import triton.language as tl


@triton.jit
def _relax(diag, up, left, xv):
    best = tl.minimum(tl.minimum(diag, up), left)
    step = tl.where((diag <= up) & (diag <= left), 0, tl.where(up <= left, 1, 2))
    return xv + best, step


@triton.jit
def _wavefront_step(x_ptr, wave_ptr, cost_ptr, trace_ptr, rows, k, M, N, wave_stride):
    cols = k - rows
    live = (rows <= M) & (cols >= 1) & (cols <= N)
    prev = wave_ptr + (k - 1) * wave_stride
    prev2 = wave_ptr + (k - 2) * wave_stride
    diag = tl.load(prev2 + rows - 1, mask=live & (rows > 1) & (cols > 1), other=float("inf"))
    diag = tl.where((rows == 1) & (cols == 1), 0.0, diag)
    up = tl.load(prev + rows - 1, mask=live & (rows > 1), other=float("inf"))
    left = tl.load(prev + rows, mask=live & (cols > 1), other=float("inf"))
    cell = (rows - 1) * N + (cols - 1)
    xv = tl.load(x_ptr + cell, mask=live, other=0.0)
    acc, step = _relax(diag, up, left, xv)
    tl.store(wave_ptr + k * wave_stride + rows, acc, mask=live)
    tl.store(cost_ptr + cell, acc, mask=live)
    tl.store(trace_ptr + cell, step, mask=live)


@triton.jit
def dtw_kernel(x_ptr, wave_ptr, cost_ptr, trace_ptr, M, N, wave_stride, BLOCK_M: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M) + 1
    for k in range(2, M + N + 1):
        _wavefront_step(x_ptr, wave_ptr, cost_ptr, trace_ptr, rows, k, M, N, wave_stride)
        tl.debug_barrier()


def run(x: torch.Tensor) -> tuple:
    M, N = x.shape
    # diagonal-major accumulated cost: wave[k, r] = cost[r - 1, k - r - 1]; the border is never read
    wave = torch.empty((M + N + 1, M + 1), device=x.device, dtype=torch.float32)
    cost = torch.empty((M, N), device=x.device, dtype=torch.float32)
    trace = torch.empty((M, N), device=x.device, dtype=torch.int32)
    BLOCK_M = triton.next_power_of_2(M)
    launch = {"num_warps": 4 if BLOCK_M <= 512 else 8}
    dtw_kernel[(1,)](x, wave, cost, trace, M, N, wave.stride(0), BLOCK_M=BLOCK_M, **launch)
    return cost, trace
