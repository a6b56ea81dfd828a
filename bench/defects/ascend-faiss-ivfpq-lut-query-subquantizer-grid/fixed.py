"""PQ distance tables: persistent programs over (sub-quantiser, query block) items, codebook loaded once per item."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40


@triton.jit
def _pq_distance_table(x, codebook, table, nq, M, D: tl.constexpr, DSUB: tl.constexpr,
                       KSUB: tl.constexpr, BLOCK_Q: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    q_blocks = tl.cdiv(nq, BLOCK_Q)
    k = tl.arange(0, KSUB)
    s = tl.arange(0, DSUB)
    for item in range(pid, M * q_blocks, nprog):
        m = item // q_blocks
        q0 = (item % q_blocks) * BLOCK_Q
        cents = tl.load(codebook + m * (KSUB * DSUB) + k[:, None] * DSUB + s[None, :])
        for i in range(BLOCK_Q):
            q = q0 + i
            if q < nq:
                xs = tl.load(x + q * D + m * DSUB + s)
                diff = cents - xs[None, :]
                tl.store(table + (q * M + m) * KSUB + k, tl.sum(diff * diff, axis=1))


def run(queries: torch.Tensor, codebook: torch.Tensor) -> torch.Tensor:
    nq, d = queries.shape
    M, ksub, dsub = codebook.shape
    table = torch.empty((nq, M, ksub), device=queries.device, dtype=queries.dtype)
    BLOCK_Q = 16
    items = M * triton.cdiv(nq, BLOCK_Q)
    grid = (min(NUM_VECTOR_CORES, items),)
    _pq_distance_table[grid](queries, codebook, table, nq, M, D=d, DSUB=dsub, KSUB=ksub, BLOCK_Q=BLOCK_Q)
    return table
