"""ColBERT MaxSim over PLAID's packed passages: one program per passage scores each block of passage
tokens against the whole query with one tl.dot and keeps a running max per query token."""
import torch
import triton
import triton.language as tl


@triton.jit
def _block_sims(q, d_ptr, toks, tok_mask, cols, col_mask, stride_d):
    d = tl.load(d_ptr + toks[:, None] * stride_d + cols[None, :],
                mask=tok_mask[:, None] & col_mask[None, :], other=0.0)
    return tl.dot(q, tl.trans(d))


@triton.jit
def colbert_maxsim_kernel(q_ptr, d_ptr, off_ptr, out_ptr, n_q, dim, stride_q, stride_d,
                          BLOCK_Q: tl.constexpr, BLOCK_L: tl.constexpr, BLOCK_D: tl.constexpr):
    pid = tl.program_id(0)
    start = tl.load(off_ptr + pid)
    end = tl.load(off_ptr + pid + 1)
    cols = tl.arange(0, BLOCK_D)
    col_mask = cols < dim
    qrows = tl.arange(0, BLOCK_Q)
    q = tl.load(q_ptr + qrows[:, None] * stride_q + cols[None, :],
                mask=(qrows < n_q)[:, None] & col_mask[None, :], other=0.0)
    best = tl.full([BLOCK_Q, BLOCK_L], float("-inf"), tl.float32)
    for t0 in range(start, end, BLOCK_L):
        toks = t0 + tl.arange(0, BLOCK_L)
        tok_mask = toks < end
        sims = _block_sims(q, d_ptr, toks, tok_mask, cols, col_mask, stride_d)
        best = tl.maximum(best, tl.where(tok_mask[None, :], sims, float("-inf")))
    maxsim = tl.where(qrows < n_q, tl.max(best, axis=1), 0.0)
    tl.store(out_ptr + pid, tl.sum(maxsim, axis=0))


def run(q: torch.Tensor, d_packed: torch.Tensor, doc_offsets: torch.Tensor) -> torch.Tensor:
    n_q, dim = q.shape
    n_docs = doc_offsets.numel() - 1
    out = torch.empty(n_docs, device=q.device, dtype=torch.float32)
    meta = {"BLOCK_Q": max(16, triton.next_power_of_2(n_q)), "BLOCK_L": 64,
            "BLOCK_D": max(16, triton.next_power_of_2(dim))}
    colbert_maxsim_kernel[(n_docs,)](q, d_packed, doc_offsets, out, n_q, dim, q.stride(0), d_packed.stride(0),
                                     num_warps=4, **meta)
    return out
