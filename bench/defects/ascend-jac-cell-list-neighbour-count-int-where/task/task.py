"""Counting pass of a cell-list neighbour-list build under periodic boundaries (MD / ML-potential style).

The box (cubic, side L) is cut into nc^3 cells of side L / nc >= cutoff; the atoms are sorted by
cell c = (cx * nc + cy) * nc + cz and their sorted coordinates are stored as three planes pos[3, N];
cell_start[c] .. cell_start[c + 1] is the range of cell c. For every sorted atom i the output is the
number of atoms j != i with a minimum-image distance below the cutoff (the per-atom row lengths
from which the neighbour list's CSR offsets are built). Only the 27 cells around i's cell can hold them.
"""
import torch

META = {
    "name": "cell_list_neighbour_count",
    "level": 2,
    "category": "molecular",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"nc": 3, "cell": 5.2, "cutoff": 5.0, "density": 0.08},
        "ragged": {"nc": 3, "cell": 6.1, "cutoff": 5.5, "density": 0.055},
        "large": {"nc": 6, "cell": 62.23 / 6, "cutoff": 10.0, "density": 23558 / 62.23 ** 3},
    },
    "baseline_notes": "Persistent grid of 40 programs (the vector cores of an Atlas A2 910B4) looping over home "
                      "cells; per home cell, blocks of 16 atoms against the 27 neighbour cells in blocks of 128, "
                      "periodic image as a per-cell shift, masks compared in fp32, counts summed along j.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """pos [3, N] (sorted by cell), cell_start [nc^3 + 1] int32, box (float), cutoff (float), nc (int)."""
    s = META["sizes"][size]
    nc, cutoff = s["nc"], s["cutoff"]
    box = nc * s["cell"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    n_atoms = int(round(s["density"] * box ** 3))
    pos = torch.rand(n_atoms, 3, generator=g, dtype=torch.float64) * box
    cell_xyz = torch.clamp((pos / (box / nc)).floor().long(), 0, nc - 1)
    cell = (cell_xyz[:, 0] * nc + cell_xyz[:, 1]) * nc + cell_xyz[:, 2]
    order = torch.argsort(cell, stable=True)
    counts = torch.bincount(cell, minlength=nc ** 3)
    cell_start = torch.zeros(nc ** 3 + 1, dtype=torch.int32)
    cell_start[1:] = torch.cumsum(counts, 0).to(torch.int32)
    planes = pos[order].t().contiguous().to(dt)
    return planes.to(device), cell_start.to(device), float(box), float(cutoff), nc


def reference(pos: torch.Tensor, cell_start: torch.Tensor, box: float, cutoff: float, nc: int) -> torch.Tensor:
    p = pos.double().t()
    n = p.shape[0]
    out = torch.empty(n, dtype=torch.int32, device=pos.device)
    for lo in range(0, n, 1024):
        d = p[lo:lo + 1024, None, :] - p[None, :, :]
        d = d - box * torch.round(d / box)
        hit = (d * d).sum(-1) < cutoff * cutoff
        rows = torch.arange(lo, min(lo + 1024, n), device=pos.device)
        hit[rows - lo, rows] = False
        out[lo:lo + 1024] = hit.sum(1).to(torch.int32)
    return out


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = int(round(s["density"] * (s["nc"] * s["cell"]) ** 3))
    pairs = 27 * n * n // s["nc"] ** 3
    return {"bytes": 16 * n + 4 * s["nc"] ** 3, "flops": 10 * pairs}
