"""GraphCast decoder output head: last linear layer of the grid-node MLP + de-normalised residual update.

After the Mesh2Grid GNN the grid-node MLP's final linear layer maps every grid node's latent (512, bf16)
to the normalised per-variable tendencies, which GraphCast turns into the next state by de-normalising
with the per-variable stddev / mean of the 6-hour differences and adding the last input state
(Lam et al., Science 2023; graphcast/normalization.py, InputsAndResiduals):
    y[g, c]   = sum_k h[g, k] * W[k, c] + b[c]
    out[g, c] = x_last[g, c] + y[g, c] * diff_std[c] + diff_mean[c]
Large: GraphCast_small, 1 degree grid (181 x 360 = 65,160 grid nodes), latent 512, 83 target channels
(5 surface variables + 6 atmospheric variables x 13 pressure levels).
"""
import torch

META = {
    "name": "graphcast_grid_output_head",
    "level": 2,
    "category": "matmul",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 2e-3, "rtol": 2e-3}},
    "sizes": {
        "small": {"G": 50, "K": 64, "levels": 2},
        "ragged": {"G": 77, "K": 128, "levels": 3},
        "large": {"G": 65160, "K": 512, "levels": 13},
    },
    "baseline_notes": "20 programs (one per A2 AI core) loop over blocks of 64 grid nodes; per block a K loop of 64 accumulates "
                      "tl.dot([64, 64] bf16 latents, [64, next_power_of_2(C)] bf16 weights) in fp32 on the "
                      "cube, then bias, de-normalisation and the residual add on the vector cores, one "
                      "masked store of the [64, C] fp32 tile; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """h [G, K] latents (dtype), W [K, C] (dtype), b, diff_std, diff_mean [C] fp32, x_last [G, C] fp32."""
    s = META["sizes"][size]
    G, K, C = s["G"], s["K"], 5 + 6 * s["levels"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    h = torch.randn(G, K, generator=g)
    w = torch.randn(K, C, generator=g) / K ** 0.5
    b = 0.02 * torch.randn(C, generator=g)
    diff_std = 0.05 + torch.rand(C, generator=g)
    diff_mean = 0.01 * torch.randn(C, generator=g)
    x_last = torch.randn(G, C, generator=g)
    return (h.to(device=device, dtype=dt), w.to(device=device, dtype=dt), b.to(device), diff_std.to(device),
            diff_mean.to(device), x_last.to(device))


def reference(h, w, b, diff_std, diff_mean, x_last) -> torch.Tensor:
    y = h.double() @ w.double() + b.double()
    return (x_last.double() + y * diff_std.double() + diff_mean.double()).to(torch.float32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    G, K, C = s["G"], s["K"], 5 + 6 * s["levels"]
    return {"bytes": 2 * G * K + 2 * K * C + 8 * G * C + 12 * C, "flops": 2 * G * K * C + 3 * G * C}
