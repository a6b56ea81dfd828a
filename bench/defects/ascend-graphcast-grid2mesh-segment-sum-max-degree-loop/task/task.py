"""GraphCast encoder (Grid2Mesh GNN): sum of the updated grid->mesh edge latents onto their mesh nodes.

GraphCast's encoder connects every lat-lon grid node to each mesh node of the finest icosahedral mesh that
lies within 0.6 x the longest finest-mesh edge (Lam et al., Science 2023); after the edge MLP the edge
latents are summed onto their receiving mesh node before the mesh-node MLP:
    agg[m, :] = sum_{e : receiver(e) = m} msg[e, :]
The edges are stored sorted by receiver (CSC, as in NVIDIA Modulus' GraphCast), so node m owns the
contiguous rows row_ptr[m] .. row_ptr[m + 1] of msg. Because the lat-lon grid crowds towards the poles the
in-degrees are very uneven: at the GraphCast_small resolution (1 degree grid, 181 x 360 = 65,160 grid nodes,
mesh 2to5 = 10,242 finest-mesh nodes) the mean in-degree is ~10 and the polar nodes receive 720 edges.
max_degree (an int) is graph metadata stored with the static graph.
"""
import math

import torch

META = {
    "name": "graphcast_grid2mesh_segment_sum",
    "level": 2,
    "category": "graph",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"mesh_level": 1, "grid_deg": 10.0, "D": 32},
        "ragged": {"mesh_level": 2, "grid_deg": 7.5, "D": 48},
        "large": {"mesh_level": 5, "grid_deg": 1.0, "D": 512},
    },
    "baseline_notes": "40 programs (the A2's vector cores) take mesh nodes round-robin; each reads its "
                      "node's two CSR offsets as scalars and loops from row_ptr[m] to row_ptr[m + 1] in "
                      "[16, next_power_of_2(D)] tiles of contiguous edge rows, summing along the edge axis "
                      "into a D-wide fp32 accumulator, then stores the node's row; no atomics, no autotune.",
    "deterministic": True,
}

_ICO_FACES = [[0, 11, 5], [0, 5, 1], [0, 1, 7], [0, 7, 10], [0, 10, 11], [1, 5, 9], [5, 11, 4],
              [11, 10, 2], [10, 7, 6], [7, 1, 8], [3, 9, 4], [3, 4, 2], [3, 2, 6], [3, 6, 8],
              [3, 8, 9], [4, 9, 5], [2, 4, 11], [6, 2, 10], [8, 6, 7], [9, 8, 1]]


def _icosphere(level: int) -> tuple:
    """Unit-sphere vertices of the icosahedron refined `level` times, and its longest edge (chord)."""
    t = (1.0 + math.sqrt(5.0)) / 2.0
    v = torch.tensor([[-1, t, 0], [1, t, 0], [-1, -t, 0], [1, -t, 0], [0, -1, t], [0, 1, t],
                      [0, -1, -t], [0, 1, -t], [t, 0, -1], [t, 0, 1], [-t, 0, -1], [-t, 0, 1]],
                     dtype=torch.float64)
    v = v / v.norm(dim=1, keepdim=True)
    f = torch.tensor(_ICO_FACES)
    for _ in range(level):
        n = v.shape[0]
        e = torch.cat([f[:, [0, 1]], f[:, [1, 2]], f[:, [2, 0]]])
        key = torch.minimum(e[:, 0], e[:, 1]) * n + torch.maximum(e[:, 0], e[:, 1])
        uniq, inv = torch.unique(key, return_inverse=True)
        mid = v[uniq // n] + v[uniq % n]
        v = torch.cat([v, mid / mid.norm(dim=1, keepdim=True)])
        m01, m12, m20 = (inv.view(3, -1) + n).unbind(0)
        f0, f1, f2 = f.unbind(1)
        f = torch.cat([torch.stack(t3, 1) for t3 in ((f0, m01, m20), (f1, m12, m01), (f2, m20, m12),
                                                     (m01, m12, m20))])
    e = torch.cat([f[:, [0, 1]], f[:, [1, 2]], f[:, [2, 0]]])
    return v, (v[e[:, 0]] - v[e[:, 1]]).norm(dim=1).max().item()


def grid2mesh_in_degree(mesh_level: int, grid_deg: float) -> torch.Tensor:
    """In-degree of every mesh node: lat-lon grid nodes within 0.6 x the longest mesh edge."""
    mesh, longest = _icosphere(mesh_level)
    radius = 0.6 * longest                              # chord length
    ang = 2.0 * math.asin(radius / 2.0)                 # the same as a great-circle angle
    mesh_lat = torch.asin(mesh[:, 2].clamp(-1.0, 1.0))
    n_lat = int(round(180.0 / grid_deg)) + 1
    n_lon = int(round(360.0 / grid_deg))
    lon = torch.arange(n_lon, dtype=torch.float64) * math.radians(grid_deg)
    deg = torch.zeros(mesh.shape[0], dtype=torch.int64)
    for i in range(n_lat):
        lat = math.radians(-90.0 + i * grid_deg)
        near = ((mesh_lat - lat).abs() <= ang + 1e-9).nonzero().flatten()
        if near.numel() == 0:
            continue
        row = torch.stack([math.cos(lat) * lon.cos(), math.cos(lat) * lon.sin(),
                           torch.full_like(lon, math.sin(lat))], -1)
        deg[near] += (torch.cdist(row, mesh[near]) <= radius).sum(0)
    return deg


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """msg [E, D] edge latents sorted by receiver, row_ptr [N + 1] int32 CSC offsets, max_degree int."""
    s = META["sizes"][size]
    deg = grid2mesh_in_degree(s["mesh_level"], s["grid_deg"])
    row_ptr = torch.zeros(deg.numel() + 1, dtype=torch.int64)
    row_ptr[1:] = torch.cumsum(deg, 0)
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    msg = torch.randn(int(row_ptr[-1]), s["D"], generator=g)
    return msg.to(device=device, dtype=dt), row_ptr.to(device=device, dtype=torch.int32), int(deg.max())


def reference(msg: torch.Tensor, row_ptr: torch.Tensor, max_degree: int) -> torch.Tensor:
    n = row_ptr.numel() - 1
    deg = (row_ptr[1:] - row_ptr[:-1]).long()
    recv = torch.repeat_interleave(torch.arange(n, device=msg.device), deg)
    out = torch.zeros(n, msg.shape[1], dtype=torch.float64, device=msg.device)
    out.index_add_(0, recv, msg.double())
    return out.to(msg.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    deg = grid2mesh_in_degree(s["mesh_level"], s["grid_deg"])
    e, n, d = int(deg.sum()), deg.numel(), s["D"]
    return {"bytes": 4 * (e + n) * d + 4 * (n + 1), "flops": e * d}
