"""GPTQ w4a16 linear for decode batches: grid (row tile, column block), int4 tiles dequantized once per step."""
import torch
import triton
import triton.language as tl


@triton.jit
def _dequant_int4_tile(qweight_ptr, scales_ptr, qzeros_ptr, k0, offs_k, offs_n, n_mask, N,
                       GROUP_SIZE: tl.constexpr):
    packed = tl.load(qweight_ptr + (offs_k[:, None] // 8) * N + offs_n[None, :], mask=n_mask[None, :], other=0)
    q = (packed >> ((offs_k[:, None] % 8) * 4)) & 0xF
    group = k0 // GROUP_SIZE
    scale = tl.load(scales_ptr + group * N + offs_n, mask=n_mask, other=0.0)
    zpacked = tl.load(qzeros_ptr + group * (N // 8) + offs_n // 8, mask=n_mask, other=0)
    zero = (zpacked >> ((offs_n % 8) * 4)) & 0xF
    return (q - zero[None, :]).to(scale.dtype) * scale[None, :]


@triton.jit
def w4a16_linear_kernel(
    x_ptr, qweight_ptr, scales_ptr, qzeros_ptr, out_ptr, M, N, K,
    GROUP_SIZE: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    m_mask = offs_m < M
    n_mask = offs_n < N

    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        offs_k = k0 + tl.arange(0, BLOCK_K)
        x = tl.load(x_ptr + offs_m[:, None] * K + offs_k[None, :], mask=m_mask[:, None], other=0.0)
        w = _dequant_int4_tile(qweight_ptr, scales_ptr, qzeros_ptr, k0, offs_k, offs_n, n_mask, N, GROUP_SIZE)
        acc = tl.dot(x, w, acc)
    out_tile = offs_m[:, None] * N + offs_n[None, :]
    tl.store(out_ptr + out_tile, acc.to(out_ptr.dtype.element_ty), mask=m_mask[:, None] & n_mask[None, :])


def run(x: torch.Tensor, qweight: torch.Tensor, scales: torch.Tensor, qzeros: torch.Tensor) -> torch.Tensor:
    M, K = x.shape
    N = qweight.shape[1]
    group_size = K // scales.shape[0]
    out = torch.empty((M, N), device=x.device, dtype=x.dtype)
    meta = {"BLOCK_M": max(16, triton.next_power_of_2(M)), "BLOCK_N": 128, "BLOCK_K": 64,
            "num_warps": 4, "num_stages": 3}
    grid = (triton.cdiv(M, meta["BLOCK_M"]), triton.cdiv(N, meta["BLOCK_N"]))
    w4a16_linear_kernel[grid](x, qweight, scales, qzeros, out, M, N, K, GROUP_SIZE=group_size, **meta)
    return out
