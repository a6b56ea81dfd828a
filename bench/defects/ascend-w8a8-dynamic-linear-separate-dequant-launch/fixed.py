"""W8A8 dynamic-quant linear for the Atlas A2 NPU, as vllm-ascend's npu_quant_matmul path computes it:
an int8 x int8 -> int32 tile GEMM on the cube cores whose accumulator is dequantised (per-token scale,
per-channel scale, bias) and stored as bfloat16 by the same program."""
import torch
import triton
import triton.language as tl

NUM_CUBE_CORES = 20   # Atlas 800T A2 (910B3): 20 AIC, 40 AIV
NUM_VECTOR_CORES = 40


@triton.jit
def _int8_tile_acc(x_ptr, w_ptr, rm, rn, M, N, K,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.int32)
    for k0 in range(0, K, BLOCK_K):
        rk = k0 + tl.arange(0, BLOCK_K)
        a = tl.load(x_ptr + rm[:, None] * K + rk[None, :], mask=(rm[:, None] < M) & (rk[None, :] < K), other=0)
        b = tl.load(w_ptr + rk[:, None] * N + rn[None, :], mask=(rk[:, None] < K) & (rn[None, :] < N), other=0)
        acc += tl.dot(a, b, out_dtype=tl.int32)
    return acc


@triton.jit
def _dequant(acc, x_scale, w_scale, bias):
    y = acc.to(tl.float32) * x_scale[:, None] * w_scale[None, :]
    return y + bias.to(tl.float32)[None, :]


@triton.jit
def w8a8_quant_matmul_kernel(x_ptr, x_scale_ptr, w_ptr, w_scale_ptr, bias_ptr, out_ptr, M, N, K,
                             NUM_CORES: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                             BLOCK_K: tl.constexpr):
    pid = tl.program_id(0)
    num_n_tiles = tl.cdiv(N, BLOCK_N)
    num_tiles = tl.cdiv(M, BLOCK_M) * num_n_tiles
    for tile in range(pid, num_tiles, NUM_CORES):
        rm = (tile // num_n_tiles) * BLOCK_M + tl.arange(0, BLOCK_M)
        rn = (tile % num_n_tiles) * BLOCK_N + tl.arange(0, BLOCK_N)
        acc = _int8_tile_acc(x_ptr, w_ptr, rm, rn, M, N, K, BLOCK_M, BLOCK_N, BLOCK_K)
        x_scale = tl.load(x_scale_ptr + rm, mask=rm < M, other=0.0)
        w_scale = tl.load(w_scale_ptr + rn, mask=rn < N, other=0.0)
        bias = tl.load(bias_ptr + rn, mask=rn < N, other=0.0)
        y = _dequant(acc, x_scale, w_scale, bias)
        tl.store(out_ptr + rm[:, None] * N + rn[None, :], y.to(out_ptr.dtype.element_ty),
                 mask=(rm[:, None] < M) & (rn[None, :] < N))


def run(x_q: torch.Tensor, x_scale: torch.Tensor, w_q: torch.Tensor, w_scale: torch.Tensor,
        bias: torch.Tensor) -> torch.Tensor:
    M, K = x_q.shape
    N = w_q.shape[1]
    out = torch.empty((M, N), dtype=bias.dtype, device=x_q.device)
    mm_opts = {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 256}
    w8a8_quant_matmul_kernel[(NUM_CUBE_CORES,)](x_q, x_scale, w_q, w_scale, bias, out, M, N, K,
                                                NUM_CORES=NUM_CUBE_CORES, **mm_opts)
    return out
