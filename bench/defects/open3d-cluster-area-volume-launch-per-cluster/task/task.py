"""Surface area and enclosed volume of every connected triangle cluster of a mesh (Open3D
TriangleMesh::ClusterConnectedTriangles' cluster_area with GetVolume per cluster; CGAL
Polygon_mesh_processing::area / volume per connected component).

After cluster_connected_triangles the faces are grouped by cluster: F [nf, 3] int32 with the faces of
cluster c in rows cluster_ptr[c] .. cluster_ptr[c + 1] (cluster_ptr [C + 1] int32), vertices V [nv, 3]
fp32 (mm). Per cluster: area = sum 0.5 |(v1 - v0) x (v2 - v0)| and, each cluster being a closed
oriented surface, the enclosed volume by the divergence theorem, sum (v0 - p) . ((v1 - p) x (v2 - p)) / 6
(any reference point p; implementations take one on the cluster to keep the fp32 terms small).
Returns [C, 2] fp32 (area mm^2, volume mm^3). Used to drop small debris clusters from scans and to
report per-part volume of a 3-D printing build plate.

The mesh here is a build plate of closed parts: noisy tori of 512 to 8,192 triangles each.
"""
import math

import torch

META = {
    "name": "mesh_cluster_area_volume",
    "level": 2,
    "category": "mesh-geometry",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"clusters": 3, "min_side": 4, "max_side": 7},
        "ragged": {"clusters": 5, "min_side": 3, "max_side": 11},
        "large": {"clusters": 1024, "min_side": 16, "max_side": 64},
    },
    "baseline_notes": "One launch, one program per cluster (grid = C): the program reads its face range "
                      "from cluster_ptr, walks it in tiles of 512 faces (gather the three corners, cross "
                      "product relative to the cluster's first vertex) and stores area and volume once. "
                      "4 warps, no atomics, deterministic.",
    "deterministic": True,
}


def _torus_part(rings: int, segments: int, centre: torch.Tensor, radius: float, tube: float,
                g: torch.Generator) -> tuple:
    """One closed noisy torus: V [rings * segments, 3] fp64, F [2 * rings * segments, 3] int64 (outward)."""
    i = torch.arange(rings, dtype=torch.float64)[:, None]
    j = torch.arange(segments, dtype=torch.float64)[None, :]
    theta = 2 * math.pi * (i + 0.2 * torch.rand(rings, segments, generator=g, dtype=torch.float64)) / rings
    phi = 2 * math.pi * (j + 0.2 * torch.rand(rings, segments, generator=g, dtype=torch.float64)) / segments
    r = tube * (1 + 0.03 * torch.randn(rings, segments, generator=g, dtype=torch.float64))
    V = torch.stack([(radius + r * torch.cos(phi)) * torch.cos(theta),
                     (radius + r * torch.cos(phi)) * torch.sin(theta),
                     r * torch.sin(phi)], dim=-1).reshape(-1, 3) + centre
    ii = torch.arange(rings)[:, None].expand(rings, segments)
    jj = torch.arange(segments)[None, :].expand(rings, segments)
    a = (ii * segments + jj).reshape(-1)
    b = (ii * segments + (jj + 1) % segments).reshape(-1)
    d = (((ii + 1) % rings) * segments + jj).reshape(-1)
    c = (((ii + 1) % rings) * segments + (jj + 1) % segments).reshape(-1)
    flip = (torch.rand(a.shape[0], generator=g) < 0.5)[:, None]
    f1 = torch.where(flip, torch.stack([a, d, b], 1), torch.stack([a, c, b], 1))
    f2 = torch.where(flip, torch.stack([b, d, c], 1), torch.stack([a, d, c], 1))
    return V, torch.cat([f1, f2])


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Vertices V [nv, 3], faces F [nf, 3] int32 grouped by cluster, cluster_ptr [C + 1] int32."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    sides = torch.randint(s["min_side"], s["max_side"] + 1, (s["clusters"], 2), generator=g)
    verts, faces, ptr, base = [], [], [0], 0
    for rings, segments in sides.tolist():
        centre = torch.rand(3, generator=g, dtype=torch.float64) * torch.tensor([250.0, 250.0, 40.0])
        radius = 5.0 + 10.0 * torch.rand(1, generator=g).item()
        tube = radius * (0.2 + 0.2 * torch.rand(1, generator=g).item())
        V, F = _torus_part(rings, segments, centre, radius, tube, g)
        verts.append(V)
        faces.append(F + base)
        base += V.shape[0]
        ptr.append(ptr[-1] + F.shape[0])
    return (torch.cat(verts).to(device=device, dtype=dt),
            torch.cat(faces).to(device=device, dtype=torch.int32),
            torch.tensor(ptr, dtype=torch.int32, device=device))


def reference(V: torch.Tensor, F: torch.Tensor, cluster_ptr: torch.Tensor) -> torch.Tensor:
    x = V.double()
    f = F.long()
    v0, v1, v2 = x[f[:, 0]], x[f[:, 1]], x[f[:, 2]]
    area = 0.5 * torch.linalg.cross(v1 - v0, v2 - v0).norm(dim=1)
    vol = (v0 * torch.linalg.cross(v1, v2)).sum(1) / 6.0
    counts = (cluster_ptr[1:] - cluster_ptr[:-1]).long()
    cid = torch.repeat_interleave(torch.arange(counts.shape[0], device=V.device), counts)
    out = torch.zeros(counts.shape[0], 2, dtype=torch.float64, device=V.device)
    out[:, 0].index_add_(0, cid, area)
    out[:, 1].index_add_(0, cid, vol)
    return out.to(V.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    mean_side = (s["min_side"] + s["max_side"]) / 2
    nf = int(2 * s["clusters"] * mean_side ** 2)
    return {"bytes": 12 * nf + 12 * nf // 2 + 8 * s["clusters"], "flops": 40 * nf}
