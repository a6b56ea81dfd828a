"""Top-k / top-p sampling from sorted probabilities: a cutoff kernel, then a sampling kernel that walks
each request's kept prefix in chunks, its length read on the device (no host reads between launches)."""
import torch
import triton
import triton.language as tl


@triton.jit
def topk_topp_cutoff_kernel(probs_ptr, top_k_ptr, top_p_ptr, count_ptr, mass_ptr, V, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = probs_ptr + row.to(tl.int64) * V
    k = tl.minimum(tl.load(top_k_ptr + row), V)
    top_p = tl.load(top_p_ptr + row)
    prefix = 0.0
    count = 0
    mass = 0.0
    for start in range(0, k, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        p = tl.load(base + cols, mask=cols < k, other=0.0)
        before = prefix + tl.cumsum(p, axis=0) - p
        keep = (cols < k) & (before < top_p)
        count += tl.sum(keep.to(tl.int32), axis=0)
        mass += tl.sum(tl.where(keep, p, 0.0), axis=0)
        prefix += tl.sum(p, axis=0)
    tl.store(count_ptr + row, count)
    tl.store(mass_ptr + row, mass)


@triton.jit
def sample_kept_kernel(probs_ptr, ids_ptr, count_ptr, mass_ptr, u_ptr, out_ptr, V, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = row.to(tl.int64) * V
    n = tl.load(count_ptr + row)
    target = tl.load(u_ptr + row) * tl.load(mass_ptr + row)
    prefix = 0.0
    j = 0
    for start in range(0, n, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        p = tl.load(probs_ptr + base + cols, mask=cols < n, other=0.0)
        cdf = prefix + tl.cumsum(p, axis=0)
        j += tl.sum(((cdf <= target) & (cols < n)).to(tl.int32), axis=0)
        prefix += tl.sum(p, axis=0)
    j = tl.minimum(j, n - 1)
    tl.store(out_ptr + row, tl.load(ids_ptr + base + j))


def run(probs: torch.Tensor, token_ids: torch.Tensor, top_k: torch.Tensor, top_p: torch.Tensor,
        u: torch.Tensor) -> torch.Tensor:
    B, V = probs.shape
    count = torch.empty((B,), dtype=torch.int32, device=probs.device)
    mass = torch.empty((B,), dtype=torch.float32, device=probs.device)
    topk_topp_cutoff_kernel[(B,)](probs, top_k, top_p, count, mass, V, BLOCK=128)
    out = torch.empty((B,), dtype=torch.int64, device=probs.device)
    sample_kept_kernel[(B,)](probs, token_ids, count, mass, u, out, V, BLOCK=128)
    return out
