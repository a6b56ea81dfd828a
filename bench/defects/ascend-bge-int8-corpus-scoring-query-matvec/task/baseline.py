"""Int8 embedding scoring: every query against a shard of int8 document embeddings, per-vector scales."""
import torch
import triton
import triton.language as tl

NUM_AI_CORES = 20


@triton.jit
def _int8_scores(q_codes, q_scale, d_codes, d_scale, out, Q, N, D, n_tiles,
                 BLOCK_Q: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    qs = tl.arange(0, BLOCK_Q)
    q_ok = qs < Q
    ks = tl.arange(0, BLOCK_K)
    qsc = tl.load(q_scale + qs, mask=q_ok, other=0.0)
    for t in range(pid, n_tiles, nprog):
        docs = t * BLOCK_N + tl.arange(0, BLOCK_N)
        d_ok = docs < N
        acc = tl.zeros([BLOCK_Q, BLOCK_N], dtype=tl.int32)
        for k0 in range(0, D, BLOCK_K):
            k_ok = (k0 + ks) < D
            q = tl.load(q_codes + qs[:, None] * D + (k0 + ks)[None, :],
                        mask=q_ok[:, None] & k_ok[None, :], other=0)
            d = tl.load(d_codes + docs[:, None] * D + (k0 + ks)[None, :],
                        mask=d_ok[:, None] & k_ok[None, :], other=0)
            acc += tl.dot(q, tl.trans(d), out_dtype=tl.int32)
        dsc = tl.load(d_scale + docs, mask=d_ok, other=0.0)
        s = acc.to(tl.float32) * qsc[:, None] * dsc[None, :]
        tl.store(out + qs[:, None] * N + docs[None, :], s, mask=q_ok[:, None] & d_ok[None, :])


def run(q_codes: torch.Tensor, q_scale: torch.Tensor, d_codes: torch.Tensor,
        d_scale: torch.Tensor) -> torch.Tensor:
    Q, D = q_codes.shape
    N = d_codes.shape[0]
    out = torch.empty((Q, N), device=q_codes.device, dtype=torch.float32)
    BLOCK_Q = max(16, triton.next_power_of_2(Q))
    BLOCK_N, BLOCK_K = 128, 256
    n_tiles = triton.cdiv(N, BLOCK_N)
    grid = (min(NUM_AI_CORES, n_tiles),)
    _int8_scores[grid](q_codes, q_scale, d_codes, d_scale, out, Q, N, D, n_tiles,
                       BLOCK_Q=BLOCK_Q, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K)
    return out
