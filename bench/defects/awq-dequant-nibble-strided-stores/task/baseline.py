"""AWQ dequantization (vLLM awq_dequantize): 2-D output tiles, each column shifting its packed word."""
import torch
import triton
import triton.language as tl


@triton.jit
def awq_dequant_kernel(qw_ptr, qz_ptr, s_ptr, out_ptr, K, N, group_size,
                       BLOCK_K: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_k = tl.program_id(0)
    pid_n = tl.program_id(1)
    rows = pid_k * BLOCK_K + tl.arange(0, BLOCK_K)
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rmask = rows < K
    cmask = cols < N
    m = rmask[:, None] & cmask[None, :]
    n8 = N // 8
    grp = rows // group_size
    sub = cols % 8
    shift = ((sub % 2) * 4 + sub // 2) * 4
    pcol = cols // 8
    q = tl.load(qw_ptr + rows[:, None] * n8 + pcol[None, :], mask=m, other=0)
    qz = tl.load(qz_ptr + grp[:, None] * n8 + pcol[None, :], mask=m, other=0)
    s = tl.load(s_ptr + grp[:, None] * N + cols[None, :], mask=m, other=0.0)
    w = (q >> shift[None, :]) & 0xF
    z = (qz >> shift[None, :]) & 0xF
    out = (w - z).to(tl.float32) * s.to(tl.float32)
    tl.store(out_ptr + rows[:, None] * N + cols[None, :], out.to(tl.float16), mask=m)


def run(qweight, qzeros, scales, group_size):
    K = qweight.shape[0]
    N = qweight.shape[1] * 8
    out = torch.empty((K, N), device=qweight.device, dtype=scales.dtype)
    BLOCK_K, BLOCK_N = 16, 256
    grid = (triton.cdiv(K, BLOCK_K), triton.cdiv(N, BLOCK_N))
    awq_dequant_kernel[grid](qweight, qzeros, scales, out, K, N, group_size, BLOCK_K=BLOCK_K, BLOCK_N=BLOCK_N)
    return out
