"""EGNN equivariant coordinate update of EDM (e3_diffusion_for_molecules, EquivariantUpdate.coord_model).

Molecules are padded to n atoms and fully connected (EDM's get_adj_matrix: edge (b, i, j) for all
i, j, in row-major order), so the per-edge output of the coordinate MLP is a dense [B, n, n] tensor.
For every atom i of molecule b:
    diff_ij = (x_i - x_j) / (sqrt(|x_i - x_j|^2 + 1e-8) + 1)          (coord2diff, norm_constant = 1)
    agg_i   = sum_j diff_ij * tanh(phi_ij) * coords_range * m_i * m_j   (unsorted_segment_sum, factor 1)
    out_i   = (x_i + agg_i) * m_i
with m the node mask (1 for the molecule's atoms, 0 for padding).
"""
import torch

META = {
    "name": "egnn_coord_update",
    "level": 2,
    "category": "gnn",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 3, "n": 13},
        "ragged": {"B": 5, "n": 29},
        "large": {"B": 64, "n": 181},
    },
    "baseline_notes": "Persistent grid of 40 programs (the vector cores of an Atlas A2 910B4) looping over "
                      "(molecule, block of 8 atoms) tiles: loads the molecule's coordinates once per tile, "
                      "an [8, next_pow2(n)] tile of phi, reduces along the contiguous j axis, stores 8 atoms.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [B, n, 3], phi [B, n, n] (coord-MLP output per edge), node_mask [B, n], coords_range (float)."""
    s = META["sizes"][size]
    B, n = s["B"], s["n"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    atoms = torch.randint((n + 1) // 2, n + 1, (B,), generator=g)
    atoms[0] = n
    node_mask = (torch.arange(n)[None, :] < atoms[:, None]).float()
    x = torch.randn(B, n, 3, generator=g) * 2.5 * node_mask[..., None]
    phi = torch.randn(B, n, n, generator=g) * 0.5
    coords_range = 15.0 / 4  # EDM: coords_range / n_layers with tanh=True
    return x.to(dt).to(device), phi.to(dt).to(device), node_mask.to(dt).to(device), coords_range


def reference(x: torch.Tensor, phi: torch.Tensor, node_mask: torch.Tensor, coords_range: float) -> torch.Tensor:
    xd, m = x.double(), node_mask.double()
    diff = xd[:, :, None, :] - xd[:, None, :, :]
    radial = (diff * diff).sum(-1, keepdim=True)
    diff = diff / (torch.sqrt(radial + 1e-8) + 1.0)
    edge_mask = (m[:, :, None] * m[:, None, :])[..., None]
    trans = diff * torch.tanh(phi.double())[..., None] * coords_range * edge_mask
    return ((xd + trans.sum(2)) * m[..., None]).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    B, n = s["B"], s["n"]
    return {"bytes": 4 * B * n * n + 28 * B * n, "flops": 30 * B * n * n}
