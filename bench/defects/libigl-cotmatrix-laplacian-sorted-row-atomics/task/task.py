"""Cotangent Laplacian applied to the vertex positions, LV = L @ V (libigl cotmatrix; the explicit
Laplacian / mean-curvature-flow smoothing step and the mean-curvature normal Hn = M^-1 L V / 2).

igl::cotmatrix(V, F, L) gives L_ij = (cot alpha_ij + cot beta_ij) / 2 for every mesh edge (i, j), the
cotangents of the two angles opposite the edge, and L_ii = -sum_j L_ij. The off-diagonal part is
handed over as the row-sorted, coalesced sparse matrix libigl produces (Eigen compressed storage,
symmetric): rowptr [nv + 1] int32 (CSR offsets), rows / cols [nnz] int32 (the expanded row index and
the column of each entry, sorted by row then column) and w [nnz] fp32. With the diagonal folded in,
(L V)_i = sum_j L_ij (V_j - V_i), returned as LV [nv, 3] fp32.

The mesh is a scanned-looking closed surface: a noisy torus grid whose quads are split along a random
diagonal (valences 4..8, mean 6, nnz = 6 nv).
"""
import math

import torch

META = {
    "name": "cotan_laplacian_apply",
    "level": 2,
    "category": "mesh-geometry",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"rings": 8, "segments": 10},
        "ragged": {"rings": 9, "segments": 13},
        "large": {"rings": 2048, "segments": 2048},
    },
    "baseline_notes": "One launch, 128 rows (vertices) per program: each program loads its rows' CSR "
                      "bounds, walks their entries in [128, 8] tiles up to the longest row of the block, "
                      "gathers V at the columns and keeps the three weighted sums in registers, then "
                      "stores LV once. 4 warps, no atomics.",
    "deterministic": True,
}


def _torus_mesh(rings: int, segments: int, g: torch.Generator) -> tuple:
    """Noisy torus (major radius 1, minor 0.35), a random diagonal per quad: V [n, 3] fp64, F [nf, 3] int64."""
    i = torch.arange(rings, dtype=torch.float64)[:, None]
    j = torch.arange(segments, dtype=torch.float64)[None, :]
    theta = 2 * math.pi * (i + 0.3 * torch.rand(rings, segments, generator=g, dtype=torch.float64)) / rings
    phi = 2 * math.pi * (j + 0.3 * torch.rand(rings, segments, generator=g, dtype=torch.float64)) / segments
    r = 0.35 * (1 + 0.05 * torch.randn(rings, segments, generator=g, dtype=torch.float64))
    V = torch.stack([(1 + r * torch.cos(phi)) * torch.cos(theta),
                     (1 + r * torch.cos(phi)) * torch.sin(theta),
                     r * torch.sin(phi)], dim=-1).reshape(-1, 3)
    ii = torch.arange(rings)[:, None].expand(rings, segments)
    jj = torch.arange(segments)[None, :].expand(rings, segments)
    a = (ii * segments + jj).reshape(-1)
    b = (ii * segments + (jj + 1) % segments).reshape(-1)
    d = (((ii + 1) % rings) * segments + jj).reshape(-1)
    c = (((ii + 1) % rings) * segments + (jj + 1) % segments).reshape(-1)
    flip = (torch.rand(a.shape[0], generator=g) < 0.5)[:, None]
    f1 = torch.where(flip, torch.stack([a, b, d], 1), torch.stack([a, b, c], 1))
    f2 = torch.where(flip, torch.stack([b, c, d], 1), torch.stack([a, c, d], 1))
    return V, torch.cat([f1, f2])


def _cotmatrix_offdiag(V: torch.Tensor, F: torch.Tensor) -> tuple:
    """Off-diagonal cotangent weights of a closed manifold mesh, sorted by (row, col): rows, cols int64, w fp64.

    Every directed edge i -> j is a half-edge of exactly one face; L_ij adds half the cotangent of the
    corner opposite it there and half of the one opposite its twin j -> i."""
    nv = V.shape[0]
    src, dst, half_cot = [], [], []
    for k in range(3):  # corner k is opposite the half-edge (k + 1) -> (k + 2)
        i, j, o = F[:, (k + 1) % 3], F[:, (k + 2) % 3], F[:, k]
        u, v = V[i] - V[o], V[j] - V[o]
        src.append(i)
        dst.append(j)
        half_cot.append(0.5 * (u * v).sum(1) / torch.linalg.cross(u, v).norm(dim=1))
    key = torch.cat(src) * nv + torch.cat(dst)
    key, order = torch.sort(key)
    half_cot = torch.cat(half_cot)[order]
    rows, cols = key // nv, key % nv
    twin = torch.searchsorted(key, cols * nv + rows)
    return rows, cols, half_cot + half_cot[twin]


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """V [nv, 3], rowptr [nv + 1] int32, rows [nnz] int32, cols [nnz] int32, w [nnz] (L's off-diagonal)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    V, F = _torus_mesh(s["rings"], s["segments"], g)
    rows, cols, w = _cotmatrix_offdiag(V, F)
    counts = torch.bincount(rows, minlength=V.shape[0])
    rowptr = torch.zeros(V.shape[0] + 1, dtype=torch.int64)
    rowptr[1:] = torch.cumsum(counts, 0)
    i32 = dict(device=device, dtype=torch.int32)
    return (V.to(device=device, dtype=dt), rowptr.to(**i32), rows.to(**i32), cols.to(**i32),
            w.to(device=device, dtype=dt))


def reference(V: torch.Tensor, rowptr: torch.Tensor, rows: torch.Tensor, cols: torch.Tensor,
              w: torch.Tensor) -> torch.Tensor:
    x = V.double()
    r, c = rows.long(), cols.long()
    contrib = w.double()[:, None] * (x[c] - x[r])
    return torch.zeros_like(x).index_add_(0, r, contrib).to(V.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    nv = s["rings"] * s["segments"]
    nnz = 6 * nv
    return {"bytes": 12 * nnz + 28 * nv, "flops": 9 * nnz}
