"""Gaussian-weighted blending of sliding-window predictions (nnU-Net v2
predict_sliding_window_return_logits, tile_step_size 0.5, use_gaussian=True).

The volume [D, H, W] is covered by an NZ x NY x NX grid of cubic windows of side P placed every
S = P / 2 voxels (D = (NZ + 1) * S, ...). Window (iz, iy, ix) predicted logits preds[iz, iy, ix]
[C, P, P, P]; each is weighted by the Gaussian importance map g [P, P, P] (sigma = P / 8, max scaled
to 10, zeros replaced by the smallest non-zero value, fp16 as in nnU-Net) and summed into the volume,
and the result is divided by the summed weights:
    out[c, v] = sum_w preds_w[c, v - o_w] * g[v - o_w] / sum_w g[v - o_w]   over windows w covering v.
"""
import torch

META = {
    "name": "nnunet_gaussian_window_blend",
    "level": 2,
    "category": "fused",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"NZ": 2, "NY": 2, "NX": 2, "C": 2, "P": 4},
        "ragged": {"NZ": 2, "NY": 2, "NX": 3, "C": 2, "P": 6},
        "large": {"NZ": 3, "NY": 3, "NX": 3, "C": 3, "P": 128},
    },
    "baseline_notes": "One launch, programs = vector cores (40), each loops over output tiles (class, slice, "
                      "half-window row block, half-window column block) of S x S voxels; the up to 8 windows "
                      "covering a tile are visited in the kernel, pred * g and g summed in registers, one "
                      "division and one store per tile.",
    "deterministic": True,
}


def _importance_map(P: int) -> torch.Tensor:
    r = torch.arange(P, dtype=torch.float64) - P // 2
    g1 = torch.exp(-0.5 * (r / (P / 8.0)) ** 2)
    g = g1[:, None, None] * g1[None, :, None] * g1[None, None, :]
    g = (g / g.max() * 10.0).to(torch.float16)
    g[g == 0] = g[g != 0].min()
    return g


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """preds [NZ, NY, NX, C, P, P, P] window logits, gauss [P, P, P] importance map."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    preds = torch.randn(s["NZ"], s["NY"], s["NX"], s["C"], s["P"], s["P"], s["P"], generator=g) * 3.0
    return preds.to(dt).to(device), _importance_map(s["P"]).to(dt).to(device)


def reference(preds: torch.Tensor, gauss: torch.Tensor) -> torch.Tensor:
    NZ, NY, NX, C, P = preds.shape[:5]
    S = P // 2
    acc = torch.zeros(C, (NZ + 1) * S, (NY + 1) * S, (NX + 1) * S, dtype=torch.float64, device=preds.device)
    cnt = torch.zeros(acc.shape[1:], dtype=torch.float64, device=preds.device)
    g = gauss.double()
    for iz in range(NZ):
        for iy in range(NY):
            for ix in range(NX):
                sl = (slice(iz * S, iz * S + P), slice(iy * S, iy * S + P), slice(ix * S, ix * S + P))
                acc[(slice(None),) + sl] += preds[iz, iy, ix].double() * g
                cnt[sl] += g
    return (acc / cnt).float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    P, S = s["P"], s["P"] // 2
    n_win = s["NZ"] * s["NY"] * s["NX"]
    vox = (s["NZ"] + 1) * (s["NY"] + 1) * (s["NX"] + 1) * S ** 3
    return {"bytes": 2 * n_win * s["C"] * P ** 3 + 2 * P ** 3 + 4 * s["C"] * vox,
            "flops": 3 * n_win * s["C"] * P ** 3}
