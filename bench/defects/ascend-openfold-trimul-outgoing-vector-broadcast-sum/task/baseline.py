"""OpenFold triangle multiplication (outgoing): p[c] = a[c] @ b[c]^T per hidden channel."""
import torch
import triton
import triton.language as tl

CUBE_CORES = 20


@triton.jit
def _trimul_outgoing(a, b, p, N, n_tiles, n_m, n_n,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    for tile in range(tl.program_id(0), n_tiles, tl.num_programs(0)):
        c = tile // (n_m * n_n)
        rest = tile % (n_m * n_n)
        i = (rest // n_n) * BLOCK_M + tl.arange(0, BLOCK_M)
        j = (rest % n_n) * BLOCK_N + tl.arange(0, BLOCK_N)
        i_ok = i < N
        j_ok = j < N
        base = c * N * N
        acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
        for k0 in range(0, N, BLOCK_K):
            k = k0 + tl.arange(0, BLOCK_K)
            k_ok = k < N
            at = tl.load(a + base + i[:, None] * N + k[None, :], mask=i_ok[:, None] & k_ok[None, :], other=0.0)
            bt = tl.load(b + base + j[:, None] * N + k[None, :], mask=j_ok[:, None] & k_ok[None, :], other=0.0)
            acc = tl.dot(at, tl.trans(bt), acc)
        tl.store(p + base + i[:, None] * N + j[None, :], acc, mask=i_ok[:, None] & j_ok[None, :])


def run(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    C, N, _ = a.shape
    a, b = a.contiguous(), b.contiguous()
    p = torch.empty((C, N, N), device=a.device, dtype=torch.float32)
    BLOCK_M, BLOCK_N, BLOCK_K = 128, 128, 64
    n_m, n_n = triton.cdiv(N, BLOCK_M), triton.cdiv(N, BLOCK_N)
    n_tiles = C * n_m * n_n
    _trimul_outgoing[(min(n_tiles, CUBE_CORES),)](a, b, p, N, n_tiles, n_m, n_n,
                                                   BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K)
    return p
