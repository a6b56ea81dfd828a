"""PyCBC matched filter: qtilde = conj(htilde) * stilde over each template's band, for a batch of templates."""
import torch
import triton
import triton.language as tl

BLOCK = 1024


@triton.jit
def _correlate(h, s, q, kmax, nf, kmin, BLOCK: tl.constexpr):
    t = tl.program_id(1)
    k = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    in_range = k < nf
    k_hi = tl.load(kmax + t)
    band = (k >= kmin) & (k < k_hi)
    row = t * nf
    hr = tl.load(h + 2 * (row + k), mask=band, other=0.0)
    hi = tl.load(h + 2 * (row + k) + 1, mask=band, other=0.0)
    sr = tl.load(s + 2 * k, mask=band, other=0.0)
    si = tl.load(s + 2 * k + 1, mask=band, other=0.0)
    # conj(h) * s
    tl.store(q + 2 * (row + k), hr * sr + hi * si, mask=in_range)
    tl.store(q + 2 * (row + k) + 1, hr * si - hi * sr, mask=in_range)


def run(htilde: torch.Tensor, stilde: torch.Tensor, kmax: torch.Tensor, kmin: int) -> torch.Tensor:
    n_templates, nf = htilde.shape[0], htilde.shape[1]
    qtilde = torch.empty_like(htilde)
    grid = (triton.cdiv(nf, BLOCK), n_templates)
    # the whole batch of templates in one launch
    _correlate[grid](htilde, stilde, qtilde, kmax, nf, kmin, BLOCK=BLOCK, num_warps=4)
    return qtilde
