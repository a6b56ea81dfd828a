"""Qwen2-VL vision patch embedding as one triton-ascend GEMM: the Conv3d with kernel == stride is
out = patches @ W.view(embed_dim, 1176).T, each cube-core program owning whole output tiles."""
import torch
import triton
import triton.language as tl

NUM_CUBE_CORES = 20   # Atlas 800T A2 (910B3): 20 AIC, 40 AIV
NUM_VECTOR_CORES = 40


@triton.jit
def _patch_tile_dot(x_ptr, w_ptr, rm, rn, M, N, K, k_begin, k_end,
                    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for k0 in range(k_begin, k_end, BLOCK_K):
        rk = k0 + tl.arange(0, BLOCK_K)
        kmask = rk < k_end
        a = tl.load(x_ptr + rm[:, None] * K + rk[None, :], mask=(rm[:, None] < M) & kmask[None, :], other=0.0)
        b = tl.load(w_ptr + rn[:, None] * K + rk[None, :], mask=(rn[:, None] < N) & kmask[None, :], other=0.0)
        acc = tl.dot(a, tl.trans(b), acc)
    return acc


@triton.jit
def patch_embed_kernel(x_ptr, w_ptr, out_ptr, M, N, K,
                       NUM_CORES: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                       BLOCK_K: tl.constexpr):
    pid = tl.program_id(0)
    num_n_tiles = tl.cdiv(N, BLOCK_N)
    num_tiles = tl.cdiv(M, BLOCK_M) * num_n_tiles
    for tile in range(pid, num_tiles, NUM_CORES):
        rm = (tile // num_n_tiles) * BLOCK_M + tl.arange(0, BLOCK_M)
        rn = (tile % num_n_tiles) * BLOCK_N + tl.arange(0, BLOCK_N)
        acc = _patch_tile_dot(x_ptr, w_ptr, rm, rn, M, N, K, 0, K, BLOCK_M, BLOCK_N, BLOCK_K)
        tl.store(out_ptr + rm[:, None] * N + rn[None, :], acc.to(out_ptr.dtype.element_ty),
                 mask=(rm[:, None] < M) & (rn[None, :] < N))


def run(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    M, K = x.shape
    N = w.shape[0]
    out = torch.empty((M, N), dtype=x.dtype, device=x.device)
    mm_opts = {"BLOCK_M": 128, "BLOCK_N": 256, "BLOCK_K": 128}
    patch_embed_kernel[(NUM_CUBE_CORES,)](x, w, out, M, N, K, NUM_CORES=NUM_CUBE_CORES, **mm_opts)
    return out
