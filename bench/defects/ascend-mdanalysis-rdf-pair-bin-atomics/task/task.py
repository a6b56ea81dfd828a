"""MDAnalysis InterRDF pair-distance histogram (analysis/rdf.py, the per-frame `count` accumulation), NPU port.

For every frame of an orthorhombic periodic trajectory, every ordered pair (i, j), i != j, of the
selection (O-O of water) is taken at its minimum-image distance r; pairs with r < 15 A fall in one
of 75 bins of 0.2 A (MDAnalysis defaults nbins=75, range=(0, 15)); the counts are summed over frames.
"""
import torch

META = {
    "name": "mdanalysis_rdf_counts",
    "level": 2,
    "category": "molecular-dynamics",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"F": 2, "N": 40, "RHO": 0.0016},
        "ragged": {"F": 3, "N": 77, "RHO": 0.002},
        "large": {"F": 10, "N": 4096, "RHO": 0.0334},
    },
    "baseline_notes": "Persistent grid of 40 programs over (frame, 4-atom i block) tiles, each looping over "
                      "16-atom j blocks: minimum-image distances, bin as a float, one-hot against the 128 "
                      "padded bins summed into a per-program histogram, one masked atomic add of the 75 "
                      "counts per program at the end; no autotune.",
    "deterministic": True,
}
NBINS = 75
RMAX = 15.0


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """pos [F, N, 3] wrapped into the box (A), box [F, 3] edge lengths (A, NPT-like jitter per frame)."""
    s = META["sizes"][size]
    f, n = s["F"], s["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    edge = (n / s["RHO"]) ** (1.0 / 3.0)
    box = edge * (1.0 + 0.01 * torch.randn(f, 3, generator=g))
    pos = torch.rand(f, n, 3, generator=g) * box[:, None, :]
    return pos.to(device=device, dtype=dt), box.to(device=device, dtype=dt)


def reference(pos: torch.Tensor, box: torch.Tensor) -> torch.Tensor:
    counts = torch.zeros(NBINS, dtype=torch.int64, device=pos.device)
    for f in range(pos.shape[0]):
        p, L = pos[f], box[f]
        d = []
        for c in range(3):
            dc = p[None, :, c] - p[:, None, c]
            d.append(dc - L[c] * torch.floor(dc / L[c] + 0.5))
        d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2]
        r = torch.sqrt(d2)
        keep = (d2 > 0.0) & (r < RMAX)
        b = torch.clamp(torch.floor(r * (NBINS / RMAX)), max=NBINS - 1).long()
        counts += torch.bincount(b[keep], minlength=NBINS)
    return counts.to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 12 * s["F"] * s["N"] + 12 * s["F"] + 4 * NBINS, "flops": 25 * s["F"] * s["N"] * s["N"]}
