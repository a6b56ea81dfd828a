"""Root site log-likelihoods: frequencies x partials summed over states and rate categories, plus log scale."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _root_site_lnl(partials, cat_weights, freqs, log_scale, out, P, stride_cat,
                   C: tl.constexpr, S: tl.constexpr, BP: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    states = tl.arange(0, S)
    pi = tl.load(freqs + states)
    for blk in range(pid, tl.cdiv(P, BP), nprog):
        pats = blk * BP + tl.arange(0, BP)
        pmask = pats < P
        site = tl.zeros([BP], dtype=tl.float32)
        for c in tl.static_range(C):
            w = tl.load(cat_weights + c)
            lk = tl.load(partials + c * stride_cat + pats[:, None] * S + states[None, :],
                         mask=pmask[:, None], other=0.0)
            site += w * tl.sum(lk * pi[None, :], axis=1)
        scale = tl.load(log_scale + pats, mask=pmask, other=0.0)
        tl.store(out + pats, tl.log(site) + scale, mask=pmask)


def run(partials: torch.Tensor, cat_weights: torch.Tensor, freqs: torch.Tensor,
        log_scale: torch.Tensor) -> torch.Tensor:
    C, P, S = partials.shape
    out = torch.empty(P, device=partials.device, dtype=partials.dtype)
    BP = 128
    grid = (min(_VECTOR_CORES, triton.cdiv(P, BP)),)
    _root_site_lnl[grid](partials, cat_weights, freqs, log_scale, out, P, partials.stride(0),
                         C=C, S=S, BP=BP)
    return out
