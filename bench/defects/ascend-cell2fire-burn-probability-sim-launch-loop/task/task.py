"""Burn probability of a fire-spread replication ensemble (Cell2Fire / FSim / Burn-P3 post-processing).

Cell2Fire runs the same landscape with many weather / ignition replications; each replication ends
with its final burn scar, a 0/1 grid over the landscape's cells (1 = the cell burned). The burn
probability map is the fraction of replications in which each cell burned:
    BP[i, j] = (1 / S) * sum_s scar[s, i, j]
Input: scars uint8 [S, H, W]; output: BP fp32 [H, W].
"""
import torch

META = {
    "name": "burn_probability",
    "level": 1,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-5}},
    "sizes": {
        "small": {"S": 5, "H": 16, "W": 32},
        "ragged": {"S": 7, "H": 37, "W": 53},
        "large": {"S": 1000, "H": 1024, "W": 1024},
    },
    "baseline_notes": "One launch of 40 programs (the A2's vector cores), each looping over blocks of 4096 "
                      "cells; per block an fp32 accumulator stays on chip while the program walks the S "
                      "replications (one contiguous 4 KiB uint8 transfer each), then one store of count / S. "
                      "No autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """scars uint8 [S, H, W]: each replication burns an elliptical patch around a random ignition,
    with unburnt islands (a fixed roughness pattern shifted per replication)."""
    s = META["sizes"][size]
    S, H, W = s["S"], s["H"], s["W"]
    g = torch.Generator().manual_seed(seed)
    extent = torch.tensor([H, W], dtype=torch.float32)
    centre = torch.rand(S, 2, generator=g) * extent
    radius = 0.1 + 0.4 * torch.rand(S, 2, generator=g) * extent
    shift = torch.randint(0, H * W, (S,), generator=g)
    rough = (torch.rand(H * W, generator=g) < 0.9).repeat(2)
    yy = torch.arange(H, dtype=torch.float32)[None, :, None]
    xx = torch.arange(W, dtype=torch.float32)[None, None, :]
    scars = torch.empty(S, H, W, dtype=torch.uint8)
    for k0 in range(0, S, 32):
        k1 = min(S, k0 + 32)
        cy, cx = centre[k0:k1, 0, None, None], centre[k0:k1, 1, None, None]
        ry, rx = radius[k0:k1, 0, None, None], radius[k0:k1, 1, None, None]
        inside = ((yy - cy) / ry) ** 2 + ((xx - cx) / rx) ** 2 <= 1.0
        holes = torch.stack([rough[int(o):int(o) + H * W] for o in shift[k0:k1]]).view(k1 - k0, H, W)
        scars[k0:k1] = inside & holes
    return (scars.to(device),)


def reference(scars: torch.Tensor) -> torch.Tensor:
    counts = torch.sum(scars, dim=0, dtype=torch.int64)
    return (counts.double() / scars.shape[0]).to(torch.float32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    cells = s["H"] * s["W"]
    return {"bytes": s["S"] * cells + 4 * cells, "flops": s["S"] * cells}
