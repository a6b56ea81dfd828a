"""ColBERT MaxSim over PLAID's packed passages: one program per passage; for each query token it
walks the passage's token blocks, keeping the best similarity, and adds that maximum to the score."""
import torch
import triton
import triton.language as tl


@triton.jit
def _block_sims(q_vec, d_ptr, toks, tok_mask, cols, col_mask, stride_d):
    d = tl.load(d_ptr + toks[:, None] * stride_d + cols[None, :],
                mask=tok_mask[:, None] & col_mask[None, :], other=0.0).to(tl.float32)
    return tl.sum(d * q_vec[None, :], axis=1)


@triton.jit
def colbert_maxsim_kernel(q_ptr, d_ptr, off_ptr, out_ptr, n_q, dim, stride_q, stride_d,
                          BLOCK_L: tl.constexpr, BLOCK_D: tl.constexpr):
    pid = tl.program_id(0)
    start = tl.load(off_ptr + pid)
    end = tl.load(off_ptr + pid + 1)
    cols = tl.arange(0, BLOCK_D)
    col_mask = cols < dim
    score = 0.0
    for i in range(0, n_q):
        q_vec = tl.load(q_ptr + i * stride_q + cols, mask=col_mask, other=0.0).to(tl.float32)
        best = tl.full([BLOCK_L], float("-inf"), tl.float32)
        for t0 in range(start, end, BLOCK_L):
            toks = t0 + tl.arange(0, BLOCK_L)
            tok_mask = toks < end
            sims = _block_sims(q_vec, d_ptr, toks, tok_mask, cols, col_mask, stride_d)
            best = tl.maximum(best, tl.where(tok_mask, sims, float("-inf")))
        score += tl.max(best, axis=0)
    tl.store(out_ptr + pid, score)


def run(q: torch.Tensor, d_packed: torch.Tensor, doc_offsets: torch.Tensor) -> torch.Tensor:
    n_q, dim = q.shape
    n_docs = doc_offsets.numel() - 1
    out = torch.empty(n_docs, device=q.device, dtype=torch.float32)
    meta = {"BLOCK_L": 64, "BLOCK_D": max(16, triton.next_power_of_2(dim))}
    colbert_maxsim_kernel[(n_docs,)](q, d_packed, doc_offsets, out, n_q, dim, q.stride(0), d_packed.stride(0),
                                     num_warps=4, **meta)
    return out
