"""OpenFold triangle multiplication (outgoing): p[c, i, j] = sum_k a[c, i, k] * b[c, j, k]."""
import torch
import triton
import triton.language as tl

VECTOR_CORES = 40


@triton.jit
def _trimul_outgoing(a, b, p, N, n_tiles, n_i, n_j,
                     BLOCK_I: tl.constexpr, BLOCK_J: tl.constexpr, BLOCK_K: tl.constexpr):
    for tile in range(tl.program_id(0), n_tiles, tl.num_programs(0)):
        c = tile // (n_i * n_j)
        rest = tile % (n_i * n_j)
        i = (rest // n_j) * BLOCK_I + tl.arange(0, BLOCK_I)
        j = (rest % n_j) * BLOCK_J + tl.arange(0, BLOCK_J)
        i_ok = i < N
        j_ok = j < N
        base = c * N * N
        acc = tl.zeros([BLOCK_I, BLOCK_J], dtype=tl.float32)
        for k0 in range(0, N, BLOCK_K):
            k = k0 + tl.arange(0, BLOCK_K)
            k_ok = k < N
            at = tl.load(a + base + i[:, None] * N + k[None, :], mask=i_ok[:, None] & k_ok[None, :], other=0.0)
            bt = tl.load(b + base + j[:, None] * N + k[None, :], mask=j_ok[:, None] & k_ok[None, :], other=0.0)
            prod = at.to(tl.float32)[:, None, :] * bt.to(tl.float32)[None, :, :]
            acc += tl.sum(prod, axis=2)
        tl.store(p + base + i[:, None] * N + j[None, :], acc, mask=i_ok[:, None] & j_ok[None, :])


def run(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    C, N, _ = a.shape
    a, b = a.contiguous(), b.contiguous()
    p = torch.empty((C, N, N), device=a.device, dtype=torch.float32)
    BLOCK_I, BLOCK_J, BLOCK_K = 16, 16, 32
    n_i, n_j = triton.cdiv(N, BLOCK_I), triton.cdiv(N, BLOCK_J)
    n_tiles = C * n_i * n_j
    _trimul_outgoing[(min(n_tiles, VECTOR_CORES),)](a, b, p, N, n_tiles, n_i, n_j,
                                                     BLOCK_I=BLOCK_I, BLOCK_J=BLOCK_J, BLOCK_K=BLOCK_K)
    return p
