"""PQ distance tables: one program per (query, sub-quantiser), 256 squared distances each."""
import torch
import triton
import triton.language as tl


@triton.jit
def _pq_distance_table(x, codebook, table, M, D: tl.constexpr, DSUB: tl.constexpr, KSUB: tl.constexpr):
    q = tl.program_id(0)
    m = tl.program_id(1)
    k = tl.arange(0, KSUB)
    s = tl.arange(0, DSUB)
    xs = tl.load(x + q * D + m * DSUB + s)
    cents = tl.load(codebook + m * (KSUB * DSUB) + k[:, None] * DSUB + s[None, :])
    diff = cents - xs[None, :]
    tl.store(table + (q * M + m) * KSUB + k, tl.sum(diff * diff, axis=1))


def run(queries: torch.Tensor, codebook: torch.Tensor) -> torch.Tensor:
    nq, d = queries.shape
    M, ksub, dsub = codebook.shape
    table = torch.empty((nq, M, ksub), device=queries.device, dtype=queries.dtype)
    _pq_distance_table[(nq, M)](queries, codebook, table, M, D=d, DSUB=dsub, KSUB=ksub)
    return table
