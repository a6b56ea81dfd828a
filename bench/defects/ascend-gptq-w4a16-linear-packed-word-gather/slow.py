"""GPTQ W4A16 linear for triton-ascend (Atlas A2): programs sized to the cube cores walk the output tiles;
each K step dequantises its weight tile from the packed int4 words and feeds the cube as fp16."""
import torch
import triton
import triton.language as tl

NUM_CUBE_CORES = 20   # Atlas 800T A2 (910B3): 20 AIC, 40 AIV
PACK = 8              # int4 codes per int32 word, along K
ZERO_POINT = 8        # symmetric GPTQ (uint4b8)


@triton.jit
def _tile_coords(tile, num_n, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tile // num_n
    pid_n = tile % num_n
    return pid_m * BLOCK_M + tl.arange(0, BLOCK_M), pid_n * BLOCK_N + tl.arange(0, BLOCK_N)


@triton.jit
def _load_codes(qw_ptr, k0, rn, n_mask, N, BLOCK_K: tl.constexpr, BLOCK_N: tl.constexpr, PACK: tl.constexpr):
    rk = k0 + tl.arange(0, BLOCK_K)
    words = tl.load(qw_ptr + (rk[:, None] // PACK) * N + rn[None, :], mask=n_mask[None, :], other=0)
    shifts = (rk[:, None] % PACK) * 4
    return (words >> shifts) & 0xF


@triton.jit
def gptq_w4a16_kernel(x_ptr, qw_ptr, scale_ptr, y_ptr, M, N, K, num_tiles, num_n,
                      GROUP: tl.constexpr, PACK: tl.constexpr, ZERO_POINT: tl.constexpr,
                      BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    rk_base = tl.arange(0, BLOCK_K)
    for tile in range(pid, num_tiles, nprog):
        rm, rn = _tile_coords(tile, num_n, BLOCK_M, BLOCK_N)
        m_mask = rm < M
        n_mask = rn < N
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for k0 in range(0, K, BLOCK_K):
            rk = k0 + rk_base
            a = tl.load(x_ptr + rm[:, None] * K + rk[None, :], mask=m_mask[:, None], other=0.0)
            codes = _load_codes(qw_ptr, k0, rn, n_mask, N, BLOCK_K, BLOCK_N, PACK)
            s = tl.load(scale_ptr + (k0 // GROUP) * N + rn, mask=n_mask, other=0.0)
            b = (codes - ZERO_POINT).to(tl.float16) * s[None, :]
            acc += tl.dot(a, b)
        tl.store(y_ptr + rm[:, None] * N + rn[None, :], acc.to(y_ptr.dtype.element_ty),
                 mask=m_mask[:, None] & n_mask[None, :])


def run(x: torch.Tensor, qweight: torch.Tensor, scales: torch.Tensor, group_size: int) -> torch.Tensor:
    M, K = x.shape
    N = qweight.shape[1]
    y = torch.empty((M, N), dtype=x.dtype, device=x.device)
    block_m = 16
    block_n = 128
    block_k = group_size
    num_n = triton.cdiv(N, block_n)
    num_tiles = triton.cdiv(M, block_m) * num_n
    grid = (min(NUM_CUBE_CORES, num_tiles),)
    gptq_w4a16_kernel[grid](x, qweight, scales, y, M, N, K, num_tiles, num_n,
                            GROUP=group_size, PACK=PACK, ZERO_POINT=ZERO_POINT,
                            BLOCK_M=block_m, BLOCK_N=block_n, BLOCK_K=block_k)
    return y
