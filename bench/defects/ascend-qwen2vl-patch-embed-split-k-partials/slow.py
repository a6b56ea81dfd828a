"""Qwen2-VL vision patch embedding as triton-ascend GEMM kernels: the Conv3d with kernel == stride is
out = patches @ W.view(embed_dim, 1176).T; the K = 1176 reduction is spread over the cube cores in
chunks, and a vector-core kernel sums the chunk results into the bfloat16 output."""
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
def patch_embed_kernel(x_ptr, w_ptr, part_ptr, M, N, K, K_PER_SPLIT,
                       SPLIT_K: tl.constexpr, NUM_CORES: tl.constexpr, BLOCK_M: tl.constexpr,
                       BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid = tl.program_id(0)
    num_n_tiles = tl.cdiv(N, BLOCK_N)
    num_items = tl.cdiv(M, BLOCK_M) * num_n_tiles * SPLIT_K
    for item in range(pid, num_items, NUM_CORES):
        tile = item // SPLIT_K
        split = item % SPLIT_K
        rm = (tile // num_n_tiles) * BLOCK_M + tl.arange(0, BLOCK_M)
        rn = (tile % num_n_tiles) * BLOCK_N + tl.arange(0, BLOCK_N)
        k_begin = split * K_PER_SPLIT
        k_end = tl.minimum(k_begin + K_PER_SPLIT, K)
        acc = _patch_tile_dot(x_ptr, w_ptr, rm, rn, M, N, K, k_begin, k_end, BLOCK_M, BLOCK_N, BLOCK_K)
        tl.store(part_ptr + split * M * N + rm[:, None] * N + rn[None, :], acc,
                 mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def sum_partials_kernel(part_ptr, out_ptr, M, N,
                        SPLIT_K: tl.constexpr, NUM_CORES: tl.constexpr, BLOCK_M: tl.constexpr,
                        BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    num_n_tiles = tl.cdiv(N, BLOCK_N)
    num_tiles = tl.cdiv(M, BLOCK_M) * num_n_tiles
    for tile in range(pid, num_tiles, NUM_CORES):
        rm = (tile // num_n_tiles) * BLOCK_M + tl.arange(0, BLOCK_M)
        rn = (tile % num_n_tiles) * BLOCK_N + tl.arange(0, BLOCK_N)
        mask = (rm[:, None] < M) & (rn[None, :] < N)
        acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
        for split in range(SPLIT_K):
            acc += tl.load(part_ptr + split * M * N + rm[:, None] * N + rn[None, :], mask=mask, other=0.0)
        tl.store(out_ptr + rm[:, None] * N + rn[None, :], acc.to(out_ptr.dtype.element_ty), mask=mask)


def run(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    M, K = x.shape
    N = w.shape[0]
    out = torch.empty((M, N), dtype=x.dtype, device=x.device)
    mm_opts = {"BLOCK_M": 128, "BLOCK_N": 256, "BLOCK_K": 128}
    split_k = 4
    k_per_split = triton.cdiv(triton.cdiv(K, mm_opts["BLOCK_K"]), split_k) * mm_opts["BLOCK_K"]
    partials = torch.empty((split_k, M, N), dtype=torch.float32, device=x.device)
    patch_embed_kernel[(NUM_CUBE_CORES,)](x, w, partials, M, N, K, k_per_split, SPLIT_K=split_k,
                                          NUM_CORES=NUM_CUBE_CORES, **mm_opts)
    sum_opts = {"BLOCK_M": 16, "BLOCK_N": 512}
    sum_partials_kernel[(NUM_VECTOR_CORES,)](partials, out, M, N, SPLIT_K=split_k, NUM_CORES=NUM_VECTOR_CORES,
                                             **sum_opts)
    return out
