"""ComplEx 1-vs-all tail scores: complex query rows q = h * r, then the GEMM q @ E.T on the cube unit."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40
NUM_CUBE_CORES = 20


@triton.jit
def _complex_query(lhs, rel, q_out, B, R, BLOCK_R: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    k = tl.arange(0, BLOCK_R)
    km = k < R
    for b in range(pid, B, nprog):
        row = b * 2 * R
        h_re = tl.load(lhs + row + k, mask=km, other=0.0).to(tl.float32)
        h_im = tl.load(lhs + row + R + k, mask=km, other=0.0).to(tl.float32)
        r_re = tl.load(rel + row + k, mask=km, other=0.0).to(tl.float32)
        r_im = tl.load(rel + row + R + k, mask=km, other=0.0).to(tl.float32)
        tl.store(q_out + row + k, (h_re * r_re - h_im * r_im).to(tl.float16), mask=km)
        tl.store(q_out + row + R + k, (h_re * r_im + h_im * r_re).to(tl.float16), mask=km)


@triton.jit
def _tail_scores(q, ent, out, B, N, K,
                 BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    tiles_n = tl.cdiv(N, BLOCK_N)
    n_tiles = tl.cdiv(B, BLOCK_M) * tiles_n
    for tile in range(pid, n_tiles, nprog):
        rows = (tile // tiles_n) * BLOCK_M + tl.arange(0, BLOCK_M)
        cols = (tile % tiles_n) * BLOCK_N + tl.arange(0, BLOCK_N)
        rm = rows < B
        cm = cols < N
        acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
        for k0 in range(0, K, BLOCK_K):
            kk = k0 + tl.arange(0, BLOCK_K)
            km = kk < K
            a = tl.load(q + rows[:, None] * K + kk[None, :], mask=rm[:, None] & km[None, :], other=0.0)
            e = tl.load(ent + cols[:, None] * K + kk[None, :], mask=cm[:, None] & km[None, :], other=0.0)
            acc += tl.dot(a, tl.trans(e))
        tl.store(out + rows[:, None] * N + cols[None, :], acc, mask=rm[:, None] & cm[None, :])


def run(lhs: torch.Tensor, rel: torch.Tensor, ent: torch.Tensor) -> torch.Tensor:
    B, K = lhs.shape
    N = ent.shape[0]
    R = K // 2
    q = torch.empty_like(lhs)
    out = torch.empty((B, N), device=lhs.device, dtype=torch.float32)
    _complex_query[(min(B, NUM_VECTOR_CORES),)](lhs, rel, q, B, R, BLOCK_R=triton.next_power_of_2(R))
    _tail_scores[(NUM_CUBE_CORES,)](q, ent, out, B, N, K,
                                   BLOCK_M=128, BLOCK_N=128, BLOCK_K=min(128, triton.next_power_of_2(K)))
    return out
