"""GPTQ-style W4A16 linear: the int4 weight tile is unpacked and dequantised inside the K loop (fused),
then multiplied on the fp16 tensor cores with an fp32 accumulator."""
import torch
import triton
import triton.language as tl

GROUP_SIZE = 128


@triton.jit
def _dequant_tile(qw_ptr, scales_ptr, qz_ptr, k0, offs_k, offs_n, n_mask, N, GROUP: tl.constexpr):
    # qweight [K/8, N]: nibble (k % 8) of word (k // 8); zeros [K/G, N/8]: nibble (n % 8) of word (n // 8)
    rows = k0 + offs_k
    q = tl.load(qw_ptr + (rows // 8)[:, None] * N + offs_n[None, :], mask=n_mask[None, :], other=0)
    q = (q >> ((rows % 8) * 4)[:, None]) & 0xF
    g = k0 // GROUP
    scale = tl.load(scales_ptr + g * N + offs_n, mask=n_mask, other=0.0)
    zp = tl.load(qz_ptr + g * (N // 8) + offs_n // 8, mask=n_mask, other=0)
    zp = (zp >> ((offs_n % 8) * 4)) & 0xF
    return (q - zp[None, :]).to(tl.float16) * scale[None, :]


@triton.jit
def w4a16_matmul_kernel(x_ptr, qw_ptr, scales_ptr, qz_ptr, out_ptr, M, N, K,
                        GROUP: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                        BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    num_m = tl.cdiv(M, BLOCK_M)
    num_n = tl.cdiv(N, BLOCK_N)
    width = GROUP_M * num_n
    first_m = (pid // width) * GROUP_M
    size_m = min(num_m - first_m, GROUP_M)
    pid_m = first_m + (pid % width) % size_m
    pid_n = (pid % width) // size_m
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    m_mask = offs_m < M
    n_mask = offs_n < N
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        a = tl.load(x_ptr + offs_m[:, None] * K + (k0 + offs_k)[None, :], mask=m_mask[:, None], other=0.0)
        w = _dequant_tile(qw_ptr, scales_ptr, qz_ptr, k0, offs_k, offs_n, n_mask, N, GROUP)
        acc = tl.dot(a, w, acc)
    tl.store(out_ptr + offs_m[:, None] * N + offs_n[None, :], acc.to(out_ptr.dtype.element_ty),
             mask=m_mask[:, None] & n_mask[None, :])


def run(x: torch.Tensor, qweight: torch.Tensor, scales: torch.Tensor, qzeros: torch.Tensor) -> torch.Tensor:
    M, K = x.shape
    N = qweight.shape[1]
    out = torch.empty((M, N), dtype=x.dtype, device=x.device)
    BLOCK_M, BLOCK_N, BLOCK_K = 128, 128, 64
    grid = (triton.cdiv(M, BLOCK_M) * triton.cdiv(N, BLOCK_N),)
    w4a16_matmul_kernel[grid](x, qweight, scales, qzeros, out, M, N, K, GROUP=GROUP_SIZE,
                              BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K, GROUP_M=8,
                              num_warps=8, num_stages=3)
    return out
