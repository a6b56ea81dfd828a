"""Autoformer series_decomp: replicate-padded moving average over time (kernel 25) and the residual."""
import torch
import triton
import triton.language as tl

VECTOR_CORES = 40


@triton.jit
def _moving_avg_decomp(x, seasonal, trend, L, C, stride_b, stride_c, stride_t, n_items, n_c, n_t,
                       KERNEL: tl.constexpr, BLOCK_C: tl.constexpr, BLOCK_T: tl.constexpr):
    HALF: tl.constexpr = (KERNEL - 1) // 2
    for item in range(tl.program_id(0), n_items, tl.num_programs(0)):
        b = item // (n_c * n_t)
        rest = item % (n_c * n_t)
        c = (rest % n_c) * BLOCK_C + tl.arange(0, BLOCK_C)
        t = (rest // n_c) * BLOCK_T + tl.arange(0, BLOCK_T)
        c_ok = c < C
        t_ok = t < L
        row = b * stride_b + c * stride_c
        first = tl.load(x + row, mask=c_ok, other=0.0)
        last = tl.load(x + row + (L - 1) * stride_t, mask=c_ok, other=0.0)
        acc = tl.zeros([BLOCK_C, BLOCK_T], dtype=tl.float32)
        for k in range(KERNEL):
            src = t + (k - HALF)
            ok = (src >= 0) & (src < L)
            acc += tl.load(x + row[:, None] + src[None, :] * stride_t,
                           mask=c_ok[:, None] & ok[None, :], other=0.0)
        n_front = tl.maximum(HALF - t, 0).to(tl.float32)
        n_back = tl.maximum(t + HALF - (L - 1), 0).to(tl.float32)
        acc += first[:, None] * n_front[None, :] + last[:, None] * n_back[None, :]
        avg = acc / KERNEL
        offs = row[:, None] + t[None, :] * stride_t
        io = c_ok[:, None] & t_ok[None, :]
        xv = tl.load(x + offs, mask=io, other=0.0)
        tl.store(trend + offs, avg, mask=io)
        tl.store(seasonal + offs, xv - avg, mask=io)


def run(x: torch.Tensor) -> tuple:
    B, L, D = x.shape
    x = x.contiguous()
    seasonal = torch.empty_like(x)
    trend = torch.empty_like(x)
    xc = x.permute(0, 2, 1)
    BLOCK_C, BLOCK_T = 256, 16
    n_c, n_t = triton.cdiv(D, BLOCK_C), triton.cdiv(L, BLOCK_T)
    n_items = B * n_c * n_t
    grid = (min(n_items, VECTOR_CORES),)
    _moving_avg_decomp[grid](x, seasonal, trend, L, D, xc.stride(0), xc.stride(1), xc.stride(2),
                             n_items, n_c, n_t, KERNEL=25, BLOCK_C=BLOCK_C, BLOCK_T=BLOCK_T)
    return seasonal, trend
