"""AWQ W4A16 GEMM: tiled tl.dot with the int4 weights dequantized per K step in registers."""
import torch
import triton
import triton.language as tl


@triton.jit
def _awq_shifts(rn):
    j = rn % 8
    return ((j & 1) * 4 + (j >> 1)) * 4


@triton.jit
def _dequant_tile(words, zero_words, scale, shifts):
    q = (words >> shifts[None, :]) & 0xF
    z = (zero_words >> shifts) & 0xF
    return (q - z[None, :]).to(tl.float16) * scale[None, :]


@triton.jit
def awq_gemm_kernel(x_ptr, qw_ptr, qz_ptr, s_ptr, out_ptr, M, N, K,
                    GROUP: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid = tl.program_id(0)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    pid_m = pid // num_pid_n
    pid_n = pid % num_pid_n
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    mmask = rm < M
    nmask = rn < N
    shifts = _awq_shifts(rn)
    NW = N // 8
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        a = tl.load(x_ptr + rm[:, None] * K + (k0 + rk)[None, :], mask=mmask[:, None], other=0.0)
        words = tl.load(qw_ptr + (k0 + rk)[:, None] * NW + (rn // 8)[None, :], mask=nmask[None, :], other=0)
        g = k0 // GROUP
        zero_words = tl.load(qz_ptr + g * NW + rn // 8, mask=nmask, other=0)
        scale = tl.load(s_ptr + g * N + rn, mask=nmask, other=0.0)
        b = _dequant_tile(words, zero_words, scale, shifts)
        acc = tl.dot(a, b, acc)
    tl.store(out_ptr + rm[:, None] * N + rn[None, :], acc.to(out_ptr.dtype.element_ty),
             mask=mmask[:, None] & nmask[None, :])


def run(x: torch.Tensor, qweight: torch.Tensor, qzeros: torch.Tensor, scales: torch.Tensor) -> torch.Tensor:
    M, K = x.shape
    N = scales.shape[1]
    group = K // scales.shape[0]
    out = torch.empty((M, N), device=x.device, dtype=x.dtype)
    cfg = {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64, "num_warps": 8, "num_stages": 3}
    grid = (triton.cdiv(M, cfg["BLOCK_M"]) * triton.cdiv(N, cfg["BLOCK_N"]),)
    awq_gemm_kernel[grid](x, qweight, qzeros, scales, out, M, N, K, GROUP=group, **cfg)
    return out
