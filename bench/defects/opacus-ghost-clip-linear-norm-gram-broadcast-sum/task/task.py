"""Ghost clipping: per-sample gradient norms of a Linear layer without materialising the gradients.

Opacus fast gradient clipping (opacus/grad_sample/linear.py, compute_linear_norm_sample; the
JAX-privacy / "book-keeping" ghost norm): for a Linear layer applied to a sequence, the per-sample
weight gradient is grad_b = sum_t g_{b,t} a_{b,t}^T (backprops [T, D_out], activations [T, D_in]),
and its squared Frobenius norm is

    ||grad_b||_F^2 = sum_{t,s} (A_b A_b^T)_{ts} (G_b G_b^T)_{ts}

computed from the two T x T Gram matrices (einsum "nik,njk->nij" on both, then "n...i,n...i->n").
Returns norms [B] fp32 = sqrt(max(., 0)). Inputs: activations [B, T, D_in], backprops [B, T, D_out]
(bf16, contiguous).
"""
import torch

META = {
    "name": "ghost_norm_linear",
    "level": 2,
    "category": "differential_privacy",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 1e-4, "rtol": 1e-3}},
    "sizes": {
        "small": {"B": 2, "T": 32, "D_in": 64, "D_out": 48},
        "ragged": {"B": 3, "T": 21, "D_in": 40, "D_out": 72},
        "large": {"B": 32, "T": 512, "D_in": 1024, "D_out": 4096},
    },
    "baseline_notes": "Grid (B, (T/64)^2): each program builds one 64x64 tile of A A^T and of G G^T with "
                      "bf16 tl.dot over D_in and D_out in 64-wide K steps (fp32 accumulators), multiplies "
                      "them elementwise, sums the tile and stores a partial; a (B,) kernel adds the partials "
                      "and takes the root. 4 warps, 3 stages, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Post-LayerNorm-like activations and backprops, each with a per-sequence shared component."""
    s = META["sizes"][size]
    b, t, d_in, d_out = s["B"], s["T"], s["D_in"], s["D_out"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    acts = torch.randn(b, t, d_in, generator=g) + 0.5 * torch.randn(b, 1, d_in, generator=g)
    back = torch.randn(b, t, d_out, generator=g) + 0.5 * torch.randn(b, 1, d_out, generator=g)
    # scale the backprops so per-sample gradient norms are O(1) (spread around a clipping norm of 1)
    per_sample = torch.exp(torch.empty(b, 1, 1).uniform_(-1.0, 1.0, generator=g))
    back = back * per_sample / (d_in * d_out * t * (1.5625 + t / 16.0)) ** 0.5
    return acts.to(device=device, dtype=dt), back.to(device=device, dtype=dt)


def reference(activations: torch.Tensor, backprops: torch.Tensor) -> torch.Tensor:
    a, g = activations.double(), backprops.double()
    aat = torch.einsum("nik,njk->nij", a, a)
    ggt = torch.einsum("nik,njk->nij", g, g)
    return torch.einsum("n...i,n...i->n", ggt, aat).clamp(min=0).sqrt().to(torch.float32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    b, t, d_in, d_out = s["B"], s["T"], s["D_in"], s["D_out"]
    return {"bytes": 2 * b * t * (d_in + d_out) + 4 * b, "flops": 2 * b * t * t * (d_in + d_out)}
