"""Sampling from sorted probabilities: one program per request, two passes over its sorted row."""
import torch
import triton
import triton.language as tl

_LAUNCH = {"BLOCK": 1024, "num_warps": 4}


@triton.jit
def _kept(p, offs, carry, k_lim, top_p, p_floor):
    incl = tl.cumsum(p, axis=0) + carry
    return (offs < k_lim) & (incl - p <= top_p) & (p >= p_floor)


@triton.jit
def _sorted_sample_kernel(
    probs_ptr, idx_ptr, top_k_ptr, top_p_ptr, min_p_ptr, u_ptr, out_ptr,
    V, stride_p, stride_i,
    BLOCK: tl.constexpr,
):
    row = tl.program_id(0)
    p_row = probs_ptr + row.to(tl.int64) * stride_p
    top_k = tl.load(top_k_ptr + row)
    top_p = tl.load(top_p_ptr + row)
    p_floor = tl.load(min_p_ptr + row) * tl.load(p_row)
    u = tl.load(u_ptr + row)
    k_lim = tl.where((top_k > 0) & (top_k < V), top_k, V)
    cols = tl.arange(0, BLOCK)

    carry = 0.0
    mass = 0.0
    n_keep = 0
    for start in range(0, V, BLOCK):
        offs = start + cols
        p = tl.load(p_row + offs, mask=offs < V, other=0.0)
        keep = _kept(p, offs, carry, k_lim, top_p, p_floor)
        mass += tl.sum(tl.where(keep, p, 0.0), axis=0)
        n_keep += tl.sum(keep.to(tl.int32), axis=0)
        carry += tl.sum(p, axis=0)

    target = u * mass
    carry = 0.0
    kept_carry = 0.0
    pos = 0
    for start in range(0, V, BLOCK):
        offs = start + cols
        p = tl.load(p_row + offs, mask=offs < V, other=0.0)
        keep = _kept(p, offs, carry, k_lim, top_p, p_floor)
        kept_p = tl.where(keep, p, 0.0)
        kept_cum = tl.cumsum(kept_p, axis=0) + kept_carry
        pos += tl.sum((keep & (kept_cum <= target)).to(tl.int32), axis=0)
        kept_carry += tl.sum(kept_p, axis=0)
        carry += tl.sum(p, axis=0)

    pos = tl.minimum(pos, n_keep - 1)
    tl.store(out_ptr + row, tl.load(idx_ptr + row.to(tl.int64) * stride_i + pos))


def run(probs_sort, probs_idx, top_k, top_p, min_p, u):
    B, V = probs_sort.shape
    out = torch.empty(B, device=probs_sort.device, dtype=probs_idx.dtype)
    _sorted_sample_kernel[(B,)](
        probs_sort, probs_idx, top_k, top_p, min_p, u, out,
        V, probs_sort.stride(0), probs_idx.stride(0),
        **_LAUNCH,
    )
    return out
