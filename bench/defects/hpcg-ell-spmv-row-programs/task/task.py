"""Sparse matrix-vector product y = A @ x with A in ELLPACK format (the HPCG 27-point stencil operator
as GPU HPCG ports store it): `ell_val` / `ell_col` are [width, n_rows], slot-major, so slot k of all
rows is contiguous; padded slots hold column -1 and value 0. fp64, output y [n_rows] fp64."""
import torch

META = {
    "name": "hpcg_ell_spmv",
    "level": 2,
    "category": "sparse",
    "dtypes": ["float64"],
    "tolerance": {"float64": {"atol": 1e-9, "rtol": 1e-9}},
    "sizes": {
        "small": {"nx": 6, "ny": 6, "nz": 6},
        "ragged": {"nx": 5, "ny": 7, "nz": 9},
        "large": {"nx": 128, "ny": 128, "nz": 128},
    },
    "baseline_notes": "Programs over blocks of 128 rows; each loads a [128, 32] tile of slots (rows on the "
                      "contiguous axis, 27 live slots), gathers x, reduces over the slots; 4 warps.",
    "deterministic": True,
}

WIDTH = 27


def _stencil_ell(nx: int, ny: int, nz: int, g: torch.Generator) -> tuple:
    """HPCG's 27-point operator (26 on the diagonal, -1 to each neighbour) with a small random
    perturbation of the off-diagonal values, as slot-major ELL arrays."""
    n = nx * ny * nz
    iz, iy, ix = torch.meshgrid(torch.arange(nz), torch.arange(ny), torch.arange(nx), indexing="ij")
    ix, iy, iz = ix.reshape(-1), iy.reshape(-1), iz.reshape(-1)
    cols = torch.full((WIDTH, n), -1, dtype=torch.int32)
    vals = torch.zeros((WIDTH, n), dtype=torch.float64)
    slot = 0
    for dz in (-1, 0, 1):
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                jx, jy, jz = ix + dx, iy + dy, iz + dz
                ok = (jx >= 0) & (jx < nx) & (jy >= 0) & (jy < ny) & (jz >= 0) & (jz < nz)
                col = (jz * ny + jy) * nx + jx
                cols[slot] = torch.where(ok, col, torch.full_like(col, -1)).to(torch.int32)
                diag = dx == 0 and dy == 0 and dz == 0
                v = torch.full((n,), 26.0, dtype=torch.float64) if diag else \
                    -1.0 + 0.01 * torch.randn(n, generator=g, dtype=torch.float64)
                vals[slot] = torch.where(ok, v, torch.zeros_like(v))
                slot += 1
    return vals, cols


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """ell_val [27, n] fp64, ell_col [27, n] int32 (slot-major), x [n] fp64."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    vals, cols = _stencil_ell(s["nx"], s["ny"], s["nz"], g)
    x = torch.rand(vals.shape[1], generator=g, dtype=torch.float64) * 2.0 - 1.0
    return vals.to(dt).to(device), cols.to(device), x.to(dt).to(device)


def reference(ell_val: torch.Tensor, ell_col: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    cols = ell_col.long()
    xv = torch.where(cols >= 0, x.double()[cols.clamp(min=0)], torch.zeros((), dtype=torch.float64,
                                                                           device=x.device))
    return (ell_val.double() * xv).sum(dim=0).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["nx"] * s["ny"] * s["nz"]
    return {"bytes": WIDTH * n * (8 + 4) + 8 * n + 8 * n, "flops": 2 * WIDTH * n}
