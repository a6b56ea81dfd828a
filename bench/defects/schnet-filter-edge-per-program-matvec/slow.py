"""SchNet filter network: one program per edge, RBF vector through the two dense layers."""

import torch
import triton
import triton.language as tl


@triton.jit
def _shifted_softplus(x):
    return tl.maximum(x, 0.0) + tl.log(1.0 + tl.exp(-tl.abs(x))) - 0.6931471805599453


@triton.jit
def _cosine_cutoff(d, cutoff):
    return tl.where(d < cutoff, 0.5 * (tl.cos(d * (3.141592653589793 / cutoff)) + 1.0), 0.0)


@triton.jit
def _dense(x, w_ptr, b_ptr, n_in, n_out, BLOCK_IN: tl.constexpr, BLOCK_OUT: tl.constexpr):
    i = tl.arange(0, BLOCK_IN)
    o = tl.arange(0, BLOCK_OUT)
    o_mask = o < n_out
    wt = tl.load(w_ptr + o[None, :] * n_in + i[:, None], mask=(i < n_in)[:, None] & o_mask[None, :], other=0.0)
    b = tl.load(b_ptr + o, mask=o_mask, other=0.0)
    return tl.sum(x[:, None] * wt, axis=0) + b


@triton.jit
def cfconv_filter_kernel(d_ptr, w1_ptr, b1_ptr, w2_ptr, b2_ptr, out_ptr, n_edges, n_rbf, n_filters,
                         cutoff, spacing, coeff,
                         BLOCK_K: tl.constexpr, BLOCK_F: tl.constexpr):
    e = tl.program_id(0)
    k = tl.arange(0, BLOCK_K)
    f = tl.arange(0, BLOCK_F)
    d = tl.load(d_ptr + e)
    diff = d - k.to(tl.float32) * spacing
    rbf = tl.where(k < n_rbf, tl.exp(coeff * diff * diff), 0.0)
    h = _shifted_softplus(_dense(rbf, w1_ptr, b1_ptr, n_rbf, n_filters, BLOCK_K, BLOCK_F))
    w = _dense(h, w2_ptr, b2_ptr, n_filters, n_filters, BLOCK_F, BLOCK_F) * _cosine_cutoff(d, cutoff)
    tl.store(out_ptr + e * n_filters + f, w, mask=f < n_filters)


def run(dist: torch.Tensor, w1: torch.Tensor, b1: torch.Tensor, w2: torch.Tensor, b2: torch.Tensor,
        cutoff: float) -> torch.Tensor:
    n_edges = dist.shape[0]
    n_filters, n_rbf = w1.shape
    spacing = cutoff / (n_rbf - 1)
    coeff = -0.5 / (spacing * spacing)
    out = torch.empty((n_edges, n_filters), device=dist.device, dtype=torch.float32)
    BLOCK_K = max(16, triton.next_power_of_2(n_rbf))
    BLOCK_F = max(16, triton.next_power_of_2(n_filters))
    grid = (n_edges,)
    cfconv_filter_kernel[grid](dist, w1, b1, w2, b2, out, n_edges, n_rbf, n_filters, cutoff, spacing, coeff,
                               BLOCK_K=BLOCK_K, BLOCK_F=BLOCK_F, num_warps=4)
    return out
