"""W8A8 dynamic-quant linear for the Atlas A2 (910B): one program per cube core walks its share of
the 128 x 256 output tiles, accumulates x_q @ w_q over 128-wide K steps and applies the per-token and
per-channel scales before the bf16 store."""
import torch
import triton
import triton.language as tl

NUM_CUBE_CORES = 20          # Atlas A2 (910B3): 20 AI cores, one cube unit each
TILE_M, TILE_N, TILE_K = 128, 256, 128


@triton.jit
def _mma(acc, a, b):
    return tl.dot(a, b, acc, out_dtype=tl.int32)


@triton.jit
def _scale_store(acc, c_ptr, x_scale_ptr, w_scale_ptr, rm, rn, M, N, stride_cm):
    row_ok = rm < M
    col_ok = rn < N
    xs = tl.load(x_scale_ptr + rm, mask=row_ok, other=0.0)
    ws = tl.load(w_scale_ptr + rn, mask=col_ok, other=0.0)
    out = acc.to(tl.float32) * xs[:, None] * ws[None, :]
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :], out.to(c_ptr.dtype.element_ty),
             mask=row_ok[:, None] & col_ok[None, :])


@triton.jit
def w8a8_linear_kernel(a_ptr, b_ptr, x_scale_ptr, w_scale_ptr, c_ptr, M, N, K,
                       stride_am, stride_bk, stride_cm,
                       NUM_CORES: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                       BLOCK_K: tl.constexpr):
    pid = tl.program_id(0)
    n_tiles_n = tl.cdiv(N, BLOCK_N)
    n_tiles = tl.cdiv(M, BLOCK_M) * n_tiles_n
    for tile in range(pid, n_tiles, NUM_CORES):
        rm = (tile // n_tiles_n) * BLOCK_M + tl.arange(0, BLOCK_M)
        rn = (tile % n_tiles_n) * BLOCK_N + tl.arange(0, BLOCK_N)
        acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.int32)
        for k0 in range(0, K, BLOCK_K):
            rk = k0 + tl.arange(0, BLOCK_K)
            a = tl.load(a_ptr + rm[:, None] * stride_am + rk[None, :],
                        mask=(rm[:, None] < M) & (rk[None, :] < K), other=0)
            b = tl.load(b_ptr + rk[:, None] * stride_bk + rn[None, :],
                        mask=(rk[:, None] < K) & (rn[None, :] < N), other=0)
            acc = _mma(acc, a, b)
        _scale_store(acc, c_ptr, x_scale_ptr, w_scale_ptr, rm, rn, M, N, stride_cm)


def run(x_q: torch.Tensor, w_q: torch.Tensor, x_scale: torch.Tensor, w_scale: torch.Tensor) -> torch.Tensor:
    M, K = x_q.shape
    N = w_q.shape[1]
    out = torch.empty((M, N), dtype=torch.bfloat16, device=x_q.device)
    n_tiles = triton.cdiv(M, TILE_M) * triton.cdiv(N, TILE_N)
    grid = (min(NUM_CUBE_CORES, n_tiles),)
    w8a8_linear_kernel[grid](
        x_q, w_q, x_scale, w_scale, out, M, N, K,
        x_q.stride(0), w_q.stride(0), out.stride(0),
        NUM_CORES=grid[0], BLOCK_M=TILE_M, BLOCK_N=TILE_N, BLOCK_K=TILE_K,
    )
    return out
