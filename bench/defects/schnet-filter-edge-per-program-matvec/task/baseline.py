"""SchNet filter network: [edges, rbf] tiles through two tl.dot layers, cosine cutoff in the epilogue."""

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
def cfconv_filter_kernel(d_ptr, w1_ptr, b1_ptr, w2_ptr, b2_ptr, out_ptr, n_edges, n_rbf, n_filters,
                         cutoff, spacing, coeff,
                         BLOCK_E: tl.constexpr, BLOCK_K: tl.constexpr, BLOCK_F: tl.constexpr):
    pid = tl.program_id(0)
    e = pid * BLOCK_E + tl.arange(0, BLOCK_E)
    k = tl.arange(0, BLOCK_K)
    f = tl.arange(0, BLOCK_F)
    e_mask = e < n_edges
    k_mask = k < n_rbf
    f_mask = f < n_filters
    d = tl.load(d_ptr + e, mask=e_mask, other=0.0)
    diff = d[:, None] - k[None, :].to(tl.float32) * spacing
    rbf = tl.where(k_mask[None, :], tl.exp(coeff * diff * diff), 0.0)
    w1t = tl.load(w1_ptr + f[None, :] * n_rbf + k[:, None], mask=k_mask[:, None] & f_mask[None, :], other=0.0)
    b1 = tl.load(b1_ptr + f, mask=f_mask, other=0.0)
    h = _shifted_softplus(tl.dot(rbf, w1t) + b1[None, :])
    w2t = tl.load(w2_ptr + f[None, :] * n_filters + f[:, None], mask=f_mask[:, None] & f_mask[None, :], other=0.0)
    b2 = tl.load(b2_ptr + f, mask=f_mask, other=0.0)
    w = (tl.dot(h, w2t) + b2[None, :]) * _cosine_cutoff(d, cutoff)[:, None]
    tl.store(out_ptr + e[:, None] * n_filters + f[None, :], w, mask=e_mask[:, None] & f_mask[None, :])


def run(dist: torch.Tensor, w1: torch.Tensor, b1: torch.Tensor, w2: torch.Tensor, b2: torch.Tensor,
        cutoff: float) -> torch.Tensor:
    n_edges = dist.shape[0]
    n_filters, n_rbf = w1.shape
    spacing = cutoff / (n_rbf - 1)
    coeff = -0.5 / (spacing * spacing)
    out = torch.empty((n_edges, n_filters), device=dist.device, dtype=torch.float32)
    BLOCK_E = 64
    BLOCK_K = max(16, triton.next_power_of_2(n_rbf))
    BLOCK_F = max(16, triton.next_power_of_2(n_filters))
    grid = (triton.cdiv(n_edges, BLOCK_E),)
    cfconv_filter_kernel[grid](dist, w1, b1, w2, b2, out, n_edges, n_rbf, n_filters, cutoff, spacing, coeff,
                               BLOCK_E=BLOCK_E, BLOCK_K=BLOCK_K, BLOCK_F=BLOCK_F, num_warps=4)
    return out
