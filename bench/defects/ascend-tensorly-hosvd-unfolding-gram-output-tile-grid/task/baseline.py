"""Gram matrix of the mode-0 unfolding of a 3-way tensor: G = X_(0) @ X_(0)^T (HOSVD factor step)."""
import torch
import triton
import triton.language as tl

_CUBE_CORES = 20


@triton.jit
def _unfolding_gram(x_ptr, g_ptr, I, N, K_PER_SPLIT, stride_xi, stride_gi,
                    BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid = tl.program_id(0)
    pid_s = tl.program_id(1)
    tiles_n = tl.cdiv(I, BN)
    pid_m = pid // tiles_n
    pid_n = pid % tiles_n
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    offs_k = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    k_lo = pid_s * K_PER_SPLIT
    k_hi = tl.minimum(N, k_lo + K_PER_SPLIT)
    for k0 in range(k_lo, k_hi, BK):
        kk = k0 + offs_k
        kmask = kk < k_hi
        a = tl.load(x_ptr + rm[:, None] * stride_xi + kk[None, :],
                    mask=(rm[:, None] < I) & kmask[None, :], other=0.0)
        b = tl.load(x_ptr + rn[:, None] * stride_xi + kk[None, :],
                    mask=(rn[:, None] < I) & kmask[None, :], other=0.0)
        acc += tl.dot(a, tl.trans(b))
    gmask = (rm[:, None] < I) & (rn[None, :] < I)
    tl.atomic_add(g_ptr + rm[:, None] * stride_gi + rn[None, :], acc, mask=gmask)


def run(X: torch.Tensor) -> torch.Tensor:
    I = X.shape[0]
    N = X.shape[1] * X.shape[2]
    G = torch.zeros((I, I), device=X.device, dtype=X.dtype)
    BM, BN, BK = 128, 128, 64
    tiles = triton.cdiv(I, BM) * triton.cdiv(I, BN)
    k_blocks = triton.cdiv(N, BK)
    split = max(1, min(_CUBE_CORES // tiles, k_blocks))
    k_per_split = triton.cdiv(k_blocks, split) * BK
    split = triton.cdiv(N, k_per_split)
    _unfolding_gram[(tiles, split)](X, G, I, N, k_per_split, X.stride(0), G.stride(0), BM=BM, BN=BN, BK=BK)
    return G
