"""RNN-T log-prob lattice: each program handles a [ROWS, V] tile of lattice rows."""
import torch
import triton
import triton.language as tl


@triton.jit
def rnnt_logprobs_kernel(logits_ptr, tgt_ptr, out_ptr, n_rows, T, U1, V,
                         ROWS: tl.constexpr, BLOCK_V: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    r_mask = rows < n_rows
    cols = tl.arange(0, BLOCK_V)
    m = r_mask[:, None] & (cols[None, :] < V)
    x = tl.load(logits_ptr + rows.to(tl.int64)[:, None] * V + cols[None, :], mask=m, other=float("-inf"))
    row_max = tl.max(x, axis=1)
    row_max = tl.where(r_mask, row_max, 0.0)
    lse = row_max + tl.log(tl.sum(tl.exp(x - row_max[:, None]), axis=1))
    b = rows // (T * U1)
    u = rows % U1
    has_tgt = r_mask & (u < U1 - 1)
    tgt = tl.load(tgt_ptr + b * (U1 - 1) + u, mask=has_tgt, other=0)
    blank_logit = tl.sum(tl.where(cols[None, :] == V - 1, x, 0.0), axis=1)
    tgt_logit = tl.sum(tl.where(cols[None, :] == tgt[:, None], x, 0.0), axis=1)
    tl.store(out_ptr + rows.to(tl.int64) * 2, blank_logit - lse, mask=r_mask)
    tl.store(out_ptr + rows.to(tl.int64) * 2 + 1, tl.where(has_tgt, tgt_logit - lse, 0.0), mask=r_mask)


def run(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    B, T, U1, V = logits.shape
    n_rows = B * T * U1
    out = torch.empty((B, T, U1, 2), device=logits.device, dtype=torch.float32)
    ROWS = 64
    rnnt_logprobs_kernel[(triton.cdiv(n_rows, ROWS),)](logits, targets, out, n_rows, T, U1, V,
                                                       ROWS=ROWS, BLOCK_V=triton.next_power_of_2(V), num_warps=4)
    return out
