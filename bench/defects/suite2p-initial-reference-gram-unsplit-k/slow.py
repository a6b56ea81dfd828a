"""Suite2p pick_initial_reference: Pearson correlation of every pair of the nimg_init sampled frames."""
import torch
import triton
import triton.language as tl

BLOCK_M = 64
BLOCK_N = 64
BLOCK_K = 64
BLOCK_MEAN = 4096


@triton.jit
def _frame_mean(frames, mean, K, BLOCK: tl.constexpr):
    i = tl.program_id(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for k0 in range(0, K, BLOCK):
        k = k0 + tl.arange(0, BLOCK)
        acc += tl.load(frames + i * K + k, mask=k < K, other=0).to(tl.float32)
    tl.store(mean + i, tl.sum(acc, axis=0) / K)


@triton.jit
def _centred_gram(frames, mean, gram, n, K,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    r_ok = rows < n
    c_ok = cols < n
    mr = tl.load(mean + rows, mask=r_ok, other=0.0)
    mc = tl.load(mean + cols, mask=c_ok, other=0.0)
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        k = k0 + tl.arange(0, BLOCK_K)
        k_ok = k < K
        a_ok = r_ok[:, None] & k_ok[None, :]
        b_ok = c_ok[:, None] & k_ok[None, :]
        a = tl.load(frames + rows[:, None] * K + k[None, :], mask=a_ok, other=0)
        b = tl.load(frames + cols[:, None] * K + k[None, :], mask=b_ok, other=0)
        a = tl.where(a_ok, a.to(tl.float32) - mr[:, None], 0.0)
        b = tl.where(b_ok, b.to(tl.float32) - mc[:, None], 0.0)
        acc += tl.dot(a, tl.trans(b))
    tl.store(gram + rows[:, None] * n + cols[None, :], acc, mask=r_ok[:, None] & c_ok[None, :])


@triton.jit
def _normalise(gram, cc, n, BLOCK: tl.constexpr):
    i = tl.program_id(0)
    j = tl.arange(0, BLOCK)
    ok = j < n
    row = tl.load(gram + i * n + j, mask=ok, other=0.0)
    dj = tl.load(gram + j * n + j, mask=ok, other=1.0)
    di = tl.load(gram + i * n + i)
    tl.store(cc + i * n + j, row / (tl.sqrt(di) * tl.sqrt(dj)), mask=ok)


def run(frames: torch.Tensor) -> torch.Tensor:
    n, Ly, Lx = frames.shape
    K = Ly * Lx
    mean = torch.empty(n, device=frames.device, dtype=torch.float32)
    gram = torch.empty((n, n), device=frames.device, dtype=torch.float32)
    cc = torch.empty((n, n), device=frames.device, dtype=torch.float32)
    _frame_mean[(n,)](frames, mean, K, BLOCK=BLOCK_MEAN, num_warps=8)
    grid = (triton.cdiv(n, BLOCK_M), triton.cdiv(n, BLOCK_N))
    _centred_gram[grid](frames, mean, gram, n, K,
                        BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K, num_warps=4)
    _normalise[(n,)](gram, cc, n, BLOCK=triton.next_power_of_2(n), num_warps=4)
    return cc
