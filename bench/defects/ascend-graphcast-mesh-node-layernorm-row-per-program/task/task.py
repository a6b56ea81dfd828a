"""GraphCast processor node update on the multi-mesh: residual + LayerNorm of the node MLP output.

Each of GraphCast's 16 processor layers (an InteractionNetwork on the icosahedral multi-mesh) ends its
node update with an MLP whose output is layer-normalised over the latent axis and added back to the
node latents (Lam et al., Science 2023; Haiku LayerNorm, eps = 1e-5, learned scale and offset):
    mu_n    = mean_d h[n, d]
    var_n   = mean_d (h[n, d] - mu_n)^2
    out[n, d] = v[n, d] + (h[n, d] - mu_n) / sqrt(var_n + eps) * gamma[d] + beta[d]
h is the node MLP output [N, D], v the incoming mesh-node latents [N, D]; the result is the next
layer's node latents. Large: the M6 multi-mesh of the 0.25 degree model, 40,962 nodes x 512 latents.
"""
import torch

META = {
    "name": "graphcast_mesh_node_residual_layernorm",
    "level": 2,
    "category": "normalization",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 42, "D": 64},
        "ragged": {"N": 162, "D": 96},
        "large": {"N": 40962, "D": 512},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over blocks of rows (BR * next_power_of_2(D) "
                      "= 4096 elements, 8 rows at D = 512); scale and offset are loaded once per program; "
                      "mean and variance are row reductions along the contiguous latent axis; one store "
                      "per block; no autotune.",
    "deterministic": True,
}
EPS = 1e-5


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """h [N, D] node MLP output, v [N, D] node latents, gamma [D], beta [D]."""
    s = META["sizes"][size]
    n, d = s["N"], s["D"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    h = torch.randn(n, d, generator=g) * 2.5 + 0.4 * torch.randn(n, 1, generator=g)
    v = torch.randn(n, d, generator=g)
    gamma = 1.0 + 0.1 * torch.randn(d, generator=g)
    beta = 0.05 * torch.randn(d, generator=g)
    return tuple(t.to(device=device, dtype=dt) for t in (h, v, gamma, beta))


def reference(h: torch.Tensor, v: torch.Tensor, gamma: torch.Tensor, beta: torch.Tensor) -> torch.Tensor:
    x = h.double()
    ln = torch.nn.functional.layer_norm(x, (x.shape[-1],), gamma.double(), beta.double(), EPS)
    return (v.double() + ln).to(h.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n, d = s["N"], s["D"]
    return {"bytes": 12 * n * d + 8 * d, "flops": 9 * n * d}
