"""Suite2p pick_initial_reference: Pearson correlation of every pair of the nimg_init sampled frames."""
import torch
import triton
import triton.language as tl

BLOCK_M = 64
BLOCK_N = 64
BLOCK_K = 64
BLOCK_MEAN = 4096
NUM_SMS = 132  # H200


@triton.jit
def _frame_mean(frames, mean, K, BLOCK: tl.constexpr):
    i = tl.program_id(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for k0 in range(0, K, BLOCK):
        k = k0 + tl.arange(0, BLOCK)
        acc += tl.load(frames + i * K + k, mask=k < K, other=0).to(tl.float32)
    tl.store(mean + i, tl.sum(acc, axis=0) / K)


@triton.jit
def _centred_gram(frames, mean, gram, n, K, k_per_split,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    split = tl.program_id(2)
    r_ok = rows < n
    c_ok = cols < n
    mr = tl.load(mean + rows, mask=r_ok, other=0.0)
    mc = tl.load(mean + cols, mask=c_ok, other=0.0)
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    k_lo = split * k_per_split
    k_hi = tl.minimum(k_lo + k_per_split, K)
    for k0 in range(k_lo, k_hi, BLOCK_K):
        k = k0 + tl.arange(0, BLOCK_K)
        k_ok = k < K
        a_ok = r_ok[:, None] & k_ok[None, :]
        b_ok = c_ok[:, None] & k_ok[None, :]
        a = tl.load(frames + rows[:, None] * K + k[None, :], mask=a_ok, other=0)
        b = tl.load(frames + cols[:, None] * K + k[None, :], mask=b_ok, other=0)
        a = tl.where(a_ok, a.to(tl.float32) - mr[:, None], 0.0)
        b = tl.where(b_ok, b.to(tl.float32) - mc[:, None], 0.0)
        acc += tl.dot(a, tl.trans(b))
    tl.store(gram + split * n * n + rows[:, None] * n + cols[None, :], acc, mask=r_ok[:, None] & c_ok[None, :])


@triton.jit
def _normalise(gram, cc, n, n_split, BLOCK: tl.constexpr):
    i = tl.program_id(0)
    j = tl.arange(0, BLOCK)
    ok = j < n
    row = tl.zeros([BLOCK], dtype=tl.float32)
    dj = tl.zeros([BLOCK], dtype=tl.float32)
    di = 0.0
    for s in range(0, n_split):
        part = gram + s * n * n
        row += tl.load(part + i * n + j, mask=ok, other=0.0)
        dj += tl.load(part + j * n + j, mask=ok, other=1.0)
        di += tl.load(part + i * n + i)
    tl.store(cc + i * n + j, row / (tl.sqrt(di) * tl.sqrt(dj)), mask=ok)


def run(frames: torch.Tensor) -> torch.Tensor:
    n, Ly, Lx = frames.shape
    K = Ly * Lx
    tiles = triton.cdiv(n, BLOCK_M) * triton.cdiv(n, BLOCK_N)
    k_tiles = triton.cdiv(K, BLOCK_K)
    n_split = max(1, min(k_tiles // 2, triton.cdiv(4 * NUM_SMS, tiles)))
    k_per_split = triton.cdiv(k_tiles, n_split) * BLOCK_K
    n_split = triton.cdiv(K, k_per_split)
    mean = torch.empty(n, device=frames.device, dtype=torch.float32)
    gram = torch.empty((n_split, n, n), device=frames.device, dtype=torch.float32)
    cc = torch.empty((n, n), device=frames.device, dtype=torch.float32)
    _frame_mean[(n,)](frames, mean, K, BLOCK=BLOCK_MEAN, num_warps=8)
    grid = (triton.cdiv(n, BLOCK_M), triton.cdiv(n, BLOCK_N), n_split)
    _centred_gram[grid](frames, mean, gram, n, K, k_per_split,
                        BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K, num_warps=4)
    _normalise[(n,)](gram, cc, n, n_split, BLOCK=triton.next_power_of_2(n), num_warps=4)
    return cc
