"""W8A16 per-channel linear as a triton-ascend kernel: one program per cube core walks the output tiles;
int8 weight tiles go to the cube as fp16 and the channel scale is applied to the accumulator."""
import torch
import triton
import triton.language as tl


@triton.jit
def _tile_coords(tile, num_n, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tile // num_n
    pid_n = tile % num_n
    return pid_m * BLOCK_M + tl.arange(0, BLOCK_M), pid_n * BLOCK_N + tl.arange(0, BLOCK_N)


@triton.jit
def w8a16_linear_kernel(x_ptr, w_ptr, scale_ptr, y_ptr, M, N, K, num_tiles, num_n,
                        BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for tile in range(pid, num_tiles, nprog):
        rm, rn = _tile_coords(tile, num_n, BLOCK_M, BLOCK_N)
        m_mask = rm < M
        n_mask = rn < N
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for k0 in range(0, K, BLOCK_K):
            rk = k0 + tl.arange(0, BLOCK_K)
            k_mask = rk < K
            a = tl.load(x_ptr + rm[:, None] * K + rk[None, :], mask=m_mask[:, None] & k_mask[None, :], other=0.0)
            b = tl.load(w_ptr + rk[:, None] * N + rn[None, :], mask=k_mask[:, None] & n_mask[None, :], other=0)
            acc += tl.dot(a, b.to(tl.float16))
        s = tl.load(scale_ptr + rn, mask=n_mask, other=0.0)
        acc = acc * s[None, :]
        tl.store(y_ptr + rm[:, None] * N + rn[None, :], acc.to(y_ptr.dtype.element_ty),
                 mask=m_mask[:, None] & n_mask[None, :])


def run(x: torch.Tensor, w_q: torch.Tensor, scale: torch.Tensor) -> torch.Tensor:
    M, K = x.shape
    N = w_q.shape[1]
    y = torch.empty((M, N), dtype=x.dtype, device=x.device)
    block_m = max(16, min(128, triton.next_power_of_2(M)))
    block_n = max(16, min(256, triton.next_power_of_2(N)))
    block_k = max(16, min(256, triton.next_power_of_2(K)))
    num_m, num_n = triton.cdiv(M, block_m), triton.cdiv(N, block_n)
    num_tiles = num_m * num_n
    num_cube_cores = 20
    grid = (min(num_cube_cores, num_tiles),)
    w8a16_linear_kernel[grid](x, w_q, scale, y, M, N, K, num_tiles, num_n,
                              BLOCK_M=block_m, BLOCK_N=block_n, BLOCK_K=block_k)
    return y
