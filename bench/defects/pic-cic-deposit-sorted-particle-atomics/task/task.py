"""Particle-in-cell charge deposition, cloud-in-cell (linear, order-1) shape on a periodic 3-D grid:
every macro-particle spreads its charge q over the 8 nodes of its cell with trilinear weights,
rho[k, j, i] = sum_p q_p Wx Wy Wz. Particles arrive sorted by cell (k, j, i), as after a PIC code's
periodic particle sort. Positions are in cell units."""
import torch

META = {
    "name": "pic_cic_charge_deposit_3d",
    "level": 2,
    "category": "scatter",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"NX": 8, "NY": 6, "NZ": 5, "PPC": 6},
        "ragged": {"NX": 7, "NY": 5, "NZ": 3, "PPC": 5},
        "large": {"NX": 128, "NY": 128, "NZ": 128, "PPC": 16},
    },
    "baseline_notes": "1-D grid of 1,024-particle blocks: trilinear weights per particle, a segmented sum over the "
                      "block's runs of equal cell id (tl.associative_scan keyed by cell), and 8 atomic adds per run "
                      "tail only (about one run per cell); 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """pos [3, N] fp32 (x, y, z rows, uniform in [0, NX) x [0, NY) x [0, NZ), sorted by cell),
    q [N] fp32 charges, and the grid shape (NX, NY, NZ); N = PPC * NX * NY * NZ."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    nx, ny, nz = s["NX"], s["NY"], s["NZ"]
    n = s["PPC"] * nx * ny * nz
    scale = torch.tensor([[nx], [ny], [nz]], dtype=dt)
    pos = torch.rand(3, n, generator=g, dtype=dt) * scale
    cell = pos.floor().to(torch.int64)
    key = (cell[2] * ny + cell[1]) * nx + cell[0]
    order = torch.sort(key, stable=True).indices
    pos = pos[:, order].contiguous()
    q = (1.0 + 0.25 * torch.randn(n, generator=g)).to(dt)
    return pos.to(device), q.to(device), nx, ny, nz


def reference(pos: torch.Tensor, q: torch.Tensor, nx: int, ny: int, nz: int) -> torch.Tensor:
    p = pos.double()
    cell = p.floor()
    frac = p - cell
    cell = cell.long()
    rho = torch.zeros(nz * ny * nx, dtype=torch.float64, device=pos.device)
    for dk in (0, 1):
        for dj in (0, 1):
            for di in (0, 1):
                w = q.double()
                w = w * (frac[0] if di else 1.0 - frac[0])
                w = w * (frac[1] if dj else 1.0 - frac[1])
                w = w * (frac[2] if dk else 1.0 - frac[2])
                i = (cell[0] + di) % nx
                j = (cell[1] + dj) % ny
                k = (cell[2] + dk) % nz
                rho.index_add_(0, (k * ny + j) * nx + i, w)
    return rho.view(nz, ny, nx).to(pos.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    cells = s["NX"] * s["NY"] * s["NZ"]
    n = s["PPC"] * cells
    return {"bytes": 16 * n + 4 * cells, "flops": 40 * n}
