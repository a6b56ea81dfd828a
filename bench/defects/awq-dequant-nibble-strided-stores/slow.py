"""AWQ dequantization (vLLM awq_dequantize): packed-word tiles, one pass per nibble slot."""
import torch
import triton
import triton.language as tl


@triton.jit
def awq_dequant_kernel(qw_ptr, qz_ptr, s_ptr, out_ptr, K, N, group_size,
                       BLOCK_K: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_k = tl.program_id(0)
    pid_n = tl.program_id(1)
    BLOCK_P: tl.constexpr = BLOCK_N // 8
    rows = pid_k * BLOCK_K + tl.arange(0, BLOCK_K)
    pcol = pid_n * BLOCK_P + tl.arange(0, BLOCK_P)
    n8 = N // 8
    m = (rows < K)[:, None] & (pcol < n8)[None, :]
    grp = rows // group_size
    q = tl.load(qw_ptr + rows[:, None] * n8 + pcol[None, :], mask=m, other=0)
    qz = tl.load(qz_ptr + grp[:, None] * n8 + pcol[None, :], mask=m, other=0)
    for sub in tl.static_range(8):
        shift = ((sub % 2) * 4 + sub // 2) * 4
        cols = pcol * 8 + sub
        s = tl.load(s_ptr + grp[:, None] * N + cols[None, :], mask=m, other=0.0)
        w = (q >> shift) & 0xF
        z = (qz >> shift) & 0xF
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
