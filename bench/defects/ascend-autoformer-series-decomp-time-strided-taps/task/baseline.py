"""Autoformer series_decomp: replicate-padded moving average over time (kernel 25) and the residual."""
import torch
import triton
import triton.language as tl

VECTOR_CORES = 40


@triton.jit
def _series_decomp(x, seasonal, trend, L, D, n_items, n_t, n_d,
                   KERNEL: tl.constexpr, BLOCK_T: tl.constexpr, BLOCK_D: tl.constexpr):
    HALF: tl.constexpr = (KERNEL - 1) // 2
    for item in range(tl.program_id(0), n_items, tl.num_programs(0)):
        b = item // (n_t * n_d)
        rest = item % (n_t * n_d)
        t = (rest // n_d) * BLOCK_T + tl.arange(0, BLOCK_T)
        d = (rest % n_d) * BLOCK_D + tl.arange(0, BLOCK_D)
        t_ok = t < L
        d_ok = d < D
        base = b * L * D
        first = tl.load(x + base + d, mask=d_ok, other=0.0)
        last = tl.load(x + base + (L - 1) * D + d, mask=d_ok, other=0.0)
        acc = tl.zeros([BLOCK_T, BLOCK_D], dtype=tl.float32)
        for k in range(KERNEL):
            src = t + (k - HALF)
            ok = (src >= 0) & (src < L)
            acc += tl.load(x + base + src[:, None] * D + d[None, :],
                           mask=ok[:, None] & d_ok[None, :], other=0.0)
        n_front = tl.maximum(HALF - t, 0).to(tl.float32)
        n_back = tl.maximum(t + HALF - (L - 1), 0).to(tl.float32)
        acc += n_front[:, None] * first[None, :] + n_back[:, None] * last[None, :]
        avg = acc / KERNEL
        offs = base + t[:, None] * D + d[None, :]
        io = t_ok[:, None] & d_ok[None, :]
        xv = tl.load(x + offs, mask=io, other=0.0)
        tl.store(trend + offs, avg, mask=io)
        tl.store(seasonal + offs, xv - avg, mask=io)


def run(x: torch.Tensor) -> tuple:
    B, L, D = x.shape
    x = x.contiguous()
    seasonal = torch.empty_like(x)
    trend = torch.empty_like(x)
    BLOCK_T, BLOCK_D = 16, 256
    n_t, n_d = triton.cdiv(L, BLOCK_T), triton.cdiv(D, BLOCK_D)
    n_items = B * n_t * n_d
    grid = (min(n_items, VECTOR_CORES),)
    _series_decomp[grid](x, seasonal, trend, L, D, n_items, n_t, n_d,
                         KERNEL=25, BLOCK_T=BLOCK_T, BLOCK_D=BLOCK_D)
    return seasonal, trend
