"""RNN-T log-prob lattice: one program per lattice row (b, t, u)."""
import torch
import triton
import triton.language as tl


@triton.jit
def rnnt_logprobs_kernel(logits_ptr, tgt_ptr, out_ptr, n_rows, T, U1, V, BLOCK_V: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_V)
    m = cols < V
    x = tl.load(logits_ptr + row.to(tl.int64) * V + cols, mask=m, other=float("-inf"))
    row_max = tl.max(x, axis=0)
    lse = row_max + tl.log(tl.sum(tl.exp(x - row_max), axis=0))
    b = row // (T * U1)
    u = row % U1
    has_tgt = u < U1 - 1
    tgt = tl.load(tgt_ptr + b * (U1 - 1) + u, mask=has_tgt, other=0)
    blank_logit = tl.sum(tl.where(cols == V - 1, x, 0.0), axis=0)
    tgt_logit = tl.sum(tl.where(cols == tgt, x, 0.0), axis=0)
    tl.store(out_ptr + row.to(tl.int64) * 2, blank_logit - lse)
    tl.store(out_ptr + row.to(tl.int64) * 2 + 1, tl.where(has_tgt, tgt_logit - lse, 0.0))


def run(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    B, T, U1, V = logits.shape
    n_rows = B * T * U1
    out = torch.empty((B, T, U1, 2), device=logits.device, dtype=torch.float32)
    rnnt_logprobs_kernel[(n_rows,)](logits, targets, out, n_rows, T, U1, V,
                                    BLOCK_V=triton.next_power_of_2(V), num_warps=4)
    return out
