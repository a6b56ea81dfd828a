"""All-pairs RMSD between pre-aligned conformers (RDKit AllChem.GetConformerRMSMatrix(prealigned=True),
the distance matrix of Butina conformer clustering), batched over molecules.

coords [B, C, A, 3] fp32: C conformers of each of B molecules, already aligned onto a common frame
and centred. rms[b, i, j] = sqrt(sum_a |x[b, i, a] - x[b, j, a]|^2 / A), Angstrom.
"""
import torch

META = {
    "name": "conformer_rmsd_matrix",
    "level": 2,
    "category": "distance",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-2, "rtol": 1e-3}},
    "sizes": {
        "small": {"B": 2, "C": 48, "A": 12},
        "ragged": {"B": 3, "C": 37, "A": 13},
        "large": {"B": 32, "C": 1000, "A": 44},
    },
    "baseline_notes": "Grid (C/64, C/64, B): a 64 x 64 tile of conformer pairs per program, the K = 3A "
                      "coordinates in steps of 32; cross term with tl.dot(input_precision='tf32x3'), "
                      "row norms, d2 = |xi|^2 + |xj|^2 - 2 xi.xj clamped at 0, sqrt(d2 / A); 4 warps, 3 stages.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """coords [B, C, A, 3] fp32: ETKDG-like ensembles, each conformer a smooth deformation of the molecule's base geometry."""
    s = META["sizes"][size]
    B, C, A = s["B"], s["C"], s["A"]
    g = torch.Generator().manual_seed(seed)
    steps = torch.randn(B, 1, A, 3, generator=g)
    base = torch.cumsum(1.5 * steps / steps.norm(dim=-1, keepdim=True), dim=2)
    # torsion-like moves: displacements that grow along the chain, of conformer-specific size
    scale = torch.rand(B, C, 1, 1, generator=g) * 0.35
    moves = torch.cumsum(torch.randn(B, C, A, 3, generator=g), dim=2) * scale
    coords = base + moves
    coords = coords - coords.mean(dim=2, keepdim=True)
    return (coords.float().contiguous().to(device),)


def reference(coords: torch.Tensor) -> torch.Tensor:
    B, C, A, _ = coords.shape
    out = torch.empty(B, C, C, dtype=torch.float32, device=coords.device)
    for b in range(B):
        x = coords[b].double().reshape(C, 3 * A)
        d = torch.cdist(x, x, compute_mode="donot_use_mm_for_euclid_dist")
        out[b] = (d / A ** 0.5).float()
    return out


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    B, C, A = s["B"], s["C"], s["A"]
    return {"bytes": 4 * B * C * 3 * A + 4 * B * C * C, "flops": 2 * B * C * C * 3 * A}
