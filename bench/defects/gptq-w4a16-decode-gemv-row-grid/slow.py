"""GPTQ w4a16 linear for decode batches: grid (activation row, column block), int4 tiles dequantized in the K loop."""
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
def w4a16_gemv_kernel(
    x_ptr, qweight_ptr, scales_ptr, qzeros_ptr, out_ptr, N, K,
    GROUP_SIZE: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
):
    row = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    n_mask = offs_n < N

    acc = tl.zeros([BLOCK_N], dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        offs_k = k0 + tl.arange(0, BLOCK_K)
        x = tl.load(x_ptr + row * K + offs_k)
        w = _dequant_int4_tile(qweight_ptr, scales_ptr, qzeros_ptr, k0, offs_k, offs_n, n_mask, N, GROUP_SIZE)
        acc += tl.sum(x[:, None].to(tl.float32) * w.to(tl.float32), axis=0)
    tl.store(out_ptr + row * N + offs_n, acc.to(out_ptr.dtype.element_ty), mask=n_mask)


def run(x: torch.Tensor, qweight: torch.Tensor, scales: torch.Tensor, qzeros: torch.Tensor) -> torch.Tensor:
    M, K = x.shape
    N = qweight.shape[1]
    group_size = K // scales.shape[0]
    out = torch.empty((M, N), device=x.device, dtype=x.dtype)
    meta = {"BLOCK_N": 128, "BLOCK_K": 64, "num_warps": 4, "num_stages": 3}
    grid = (M, triton.cdiv(N, meta["BLOCK_N"]))
    w4a16_gemv_kernel[grid](x, qweight, scales, qzeros, out, N, K, GROUP_SIZE=group_size, **meta)
    return out
