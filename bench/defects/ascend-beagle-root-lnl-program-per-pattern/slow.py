"""Root site log-likelihoods: frequencies x partials summed over states and rate categories, plus log scale."""
import torch
import triton
import triton.language as tl


@triton.jit
def _root_site_lnl(partials, cat_weights, freqs, log_scale, out, P, stride_cat,
                   C: tl.constexpr, S: tl.constexpr):
    pat = tl.program_id(0)
    states = tl.arange(0, S)
    pi = tl.load(freqs + states)
    site = 0.0
    for c in tl.static_range(C):
        w = tl.load(cat_weights + c)
        lk = tl.load(partials + c * stride_cat + pat * S + states)
        site += w * tl.sum(lk * pi, axis=0)
    scale = tl.load(log_scale + pat)
    tl.store(out + pat, tl.log(site) + scale)


def run(partials: torch.Tensor, cat_weights: torch.Tensor, freqs: torch.Tensor,
        log_scale: torch.Tensor) -> torch.Tensor:
    C, P, S = partials.shape
    out = torch.empty(P, device=partials.device, dtype=partials.dtype)
    _root_site_lnl[(P,)](partials, cat_weights, freqs, log_scale, out, P, partials.stride(0),
                         C=C, S=S)
    return out
