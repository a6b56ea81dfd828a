"""BEVDet bev_pool_v2: lift-splat pooling of camera features into the BEV grid (BEVDet / BEVDepth / BEVDet4D).

Every frustum point (b, cam, d, h, w) inside the BEV range contributes depth[b, cam, d, h, w] *
feat[b, cam, h, w, :] to its BEV cell. The points are pre-sorted by cell (voxel_pooling_prepare_v2):
ranks_depth / ranks_feat index the flattened depth and feature tensors, ranks_bev is the cell
(non-decreasing), and interval_starts / interval_lengths delimit the runs of points of one cell.
Output [B, Z, Y, X, C]; cells no point reaches are zero.
"""
import math

import torch

META = {
    "name": "bev_pool_v2",
    "level": 2,
    "category": "scatter",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 1, "N": 2, "D": 6, "H": 4, "W": 8, "C": 16, "G": 16},
        "ragged": {"B": 2, "N": 3, "D": 7, "H": 3, "W": 11, "C": 20, "G": 12},
        "large": {"B": 8, "N": 6, "D": 59, "H": 16, "W": 44, "C": 80, "G": 128},
    },
    "baseline_notes": "Persistent grid of 40 programs (the A2's vector cores) striding over the intervals; per "
                      "interval the program walks its points, reads the three ranks and the depth weight as scalars, "
                      "loads the point's contiguous C-channel feature row, accumulates in fp32 and stores the cell "
                      "row once; output zero-filled for the empty cells.",
    "deterministic": True,
}


def _cells(s: dict) -> torch.Tensor:
    """Ray geometry of BEVDet's frustum: camera n looks along yaw n*360/N, column w spans a 70 degree
    field of view, depth bin d lies 1 + 59 * d / D metres out, image row h sets the height; the grid
    covers +-51.2 m in G x G cells and z in [-5, 3] m. Returns the flat cell per point, -1 outside."""
    B, N, D, H, W, G = s["B"], s["N"], s["D"], s["H"], s["W"], s["G"]
    n = torch.arange(N).view(N, 1, 1, 1).double()
    d = torch.arange(D).view(1, D, 1, 1).double()
    h = torch.arange(H).view(1, 1, H, 1).double()
    w = torch.arange(W).view(1, 1, 1, W).double()
    yaw = n * (2 * math.pi / N) + ((w + 0.5) / W - 0.5) * math.radians(70.0)
    r = 1.0 + 59.0 * (d + 0.5) / D
    x, y = r * torch.cos(yaw), r * torch.sin(yaw)
    z = 1.6 - ((h + 0.5) / H - 0.5) * 0.6 * r
    cx = torch.floor((x + 51.2) / (102.4 / G)).long()
    cy = torch.floor((y + 51.2) / (102.4 / G)).long()
    kept = (cx >= 0) & (cx < G) & (cy >= 0) & (cy < G) & (z >= -5.0) & (z < 3.0)
    cell = torch.where(kept, cy * G + cx, torch.full_like(cx, -1))
    cells = cell.expand(N, D, H, W).reshape(1, -1).repeat(B, 1)
    return torch.where(cells >= 0, cells + torch.arange(B)[:, None] * G * G, cells).reshape(-1)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """depth [B, N, D, H, W] (softmax over D), feat [B, N, H, W, C], then the int32 ranks and intervals."""
    s = META["sizes"][size]
    B, N, D, H, W, C = s["B"], s["N"], s["D"], s["H"], s["W"], s["C"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    depth = torch.softmax(torch.randn(B, N, D, H, W, generator=g) * 2.0, dim=2)
    feat = torch.randn(B, N, H, W, C, generator=g)
    cell = _cells(s)
    idx = torch.arange(cell.numel()).view(B, N, D, H, W)
    ranks_depth = idx.reshape(-1)
    ranks_feat = ((idx // (D * H * W)) * (H * W) + idx % (H * W)).reshape(-1)
    kept = cell >= 0
    ranks_bev, ranks_depth, ranks_feat = cell[kept], ranks_depth[kept], ranks_feat[kept]
    order = torch.argsort(ranks_bev, stable=True)
    ranks_bev, ranks_depth, ranks_feat = ranks_bev[order], ranks_depth[order], ranks_feat[order]
    first = torch.ones_like(ranks_bev, dtype=torch.bool)
    first[1:] = ranks_bev[1:] != ranks_bev[:-1]
    starts = torch.nonzero(first).reshape(-1)
    lengths = torch.diff(starts, append=torch.tensor([ranks_bev.numel()]))
    i32 = lambda t: t.to(torch.int32).to(device)
    return (depth.to(dt).to(device), feat.to(dt).to(device), i32(ranks_depth), i32(ranks_feat),
            i32(ranks_bev), i32(starts), i32(lengths), s["G"])


def reference(depth, feat, ranks_depth, ranks_feat, ranks_bev, interval_starts, interval_lengths, grid):
    B, C = depth.shape[0], feat.shape[-1]
    out = torch.zeros(B * grid * grid, C, dtype=torch.float64, device=feat.device)
    contrib = depth.reshape(-1)[ranks_depth.long()].double()[:, None] * feat.reshape(-1, C)[ranks_feat.long()].double()
    out.index_add_(0, ranks_bev.long(), contrib)
    return out.view(B, 1, grid, grid, C).to(feat.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    P = int((_cells(s) >= 0).sum())
    out = s["B"] * s["G"] * s["G"] * s["C"]
    return {"bytes": P * (16 + 4 * s["C"]) + 4 * out, "flops": 2 * P * s["C"]}
