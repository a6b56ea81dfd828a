"""Edge-length statistics of a triangle mesh (libigl avg_edge_length, with the min and max used for remeshing targets).

libigl's igl::avg_edge_length(V, F) takes the unique undirected edges E = igl::edges(F) and returns
mean_e |V[E[e,0]] - V[E[e,1]]|; isotropic remeshing (CGAL PMP::isotropic_remeshing, PyMesh
split_long_edges / collapse_short_edges) picks its target length from the same pass together with the
shortest and longest edge. Inputs are the vertex positions V [nv, 3] fp32 and the unique edge list
E [ne, 2] int32 (sorted by first vertex, as igl::edges returns it); the result is a fp32 tensor
[3] = (mean, min, max) edge length.

The mesh is a scanned-looking closed surface: a noisy torus grid whose quads are split along a random
diagonal (valences 4..8, mean 6, ne = 3 nv).
"""
import math

import torch

META = {
    "name": "mesh_edge_length_stats",
    "level": 2,
    "category": "mesh-geometry",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"rings": 8, "segments": 10},
        "ragged": {"rings": 9, "segments": 13},
        "large": {"rings": 2048, "segments": 2048},
    },
    "baseline_notes": "Two launches: a grid of cdiv(ne, 8192) programs, each folding 8 tiles of 1024 edges "
                      "(gather both endpoints, length) into per-lane sum/min/max and writing one partial "
                      "per program; then one program reduces the partials into (mean, min, max). 4 warps, "
                      "no atomics, deterministic.",
    "deterministic": True,
}


def _torus_mesh(rings: int, segments: int, g: torch.Generator) -> tuple:
    """Noisy torus (major radius 1, minor 0.35) with a random diagonal per quad: V [n, 3] fp64, E [ne, 2] int64."""
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
    flip = torch.rand(a.shape[0], generator=g) < 0.5
    diag = torch.stack([torch.where(flip, b, a), torch.where(flip, d, c)], dim=1)
    E = torch.cat([torch.stack([a, b], 1), torch.stack([a, d], 1), diag])
    E = torch.sort(E, dim=1).values
    E = E[torch.argsort(E[:, 0] * V.shape[0] + E[:, 1])]
    return V, E


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Vertex positions V [nv, 3] and unique undirected edges E [ne, 2] int32."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    V, E = _torus_mesh(s["rings"], s["segments"], g)
    return V.to(device=device, dtype=dt), E.to(device=device, dtype=torch.int32)


def reference(V: torch.Tensor, E: torch.Tensor) -> torch.Tensor:
    x = V.double()
    e = E.long()
    length = (x[e[:, 0]] - x[e[:, 1]]).norm(dim=1)
    return torch.stack([length.mean(), length.min(), length.max()]).to(V.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    nv = s["rings"] * s["segments"]
    ne = 3 * nv
    return {"bytes": 8 * ne + 12 * nv, "flops": 9 * ne}
