"""Int8 embedding scoring: every query against a shard of int8 document embeddings, per-vector scales."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40


@triton.jit
def _int8_scores(q_codes, q_scale, d_codes, d_scale, out, Q, N, D, n_tiles, n_items,
                 BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    ks = tl.arange(0, BLOCK_K)
    for item in range(pid, n_items, nprog):
        t = item // Q
        qi = item - t * Q
        docs = t * BLOCK_N + tl.arange(0, BLOCK_N)
        d_ok = docs < N
        acc = tl.zeros([BLOCK_N], dtype=tl.float32)
        for k0 in range(0, D, BLOCK_K):
            k_ok = (k0 + ks) < D
            q = tl.load(q_codes + qi * D + k0 + ks, mask=k_ok, other=0)
            d = tl.load(d_codes + docs[:, None] * D + (k0 + ks)[None, :],
                        mask=d_ok[:, None] & k_ok[None, :], other=0)
            acc += tl.sum(d.to(tl.float32) * q.to(tl.float32)[None, :], axis=1)
        dsc = tl.load(d_scale + docs, mask=d_ok, other=0.0)
        s = acc * tl.load(q_scale + qi) * dsc
        tl.store(out + qi * N + docs, s, mask=d_ok)


def run(q_codes: torch.Tensor, q_scale: torch.Tensor, d_codes: torch.Tensor,
        d_scale: torch.Tensor) -> torch.Tensor:
    Q, D = q_codes.shape
    N = d_codes.shape[0]
    out = torch.empty((Q, N), device=q_codes.device, dtype=torch.float32)
    BLOCK_N, BLOCK_K = 64, 128
    n_tiles = triton.cdiv(N, BLOCK_N)
    n_items = n_tiles * Q
    grid = (min(NUM_VECTOR_CORES, n_items),)
    _int8_scores[grid](q_codes, q_scale, d_codes, d_scale, out, Q, N, D, n_tiles, n_items,
                       BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K)
    return out
