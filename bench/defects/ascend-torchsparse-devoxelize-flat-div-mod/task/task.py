"""Trilinear devoxelization of torchsparse / SPVCNN (voxel_to_point: spdevoxelize with calc_ti_weights).

SPVCNN's point branch reads voxel features back at every point: the point's position p (in units of the
voxel size at the tensor's stride) falls in the cell whose 8 corners are floor(p) + {0,1}^3; for each
corner the kernel map idx [P, 8] holds the row of that voxel in the sparse tensor (-1 when the voxel is
not occupied) and weight [P, 8] the trilinear weight (0 for a missing corner, the rest renormalised to
sum to 1, as calc_ti_weights does). Then
    out[p, :] = sum_k weight[p, k] * feat[idx[p, k], :]        (terms with idx = -1 skipped)
idx and weight are [P, 8] contiguous (torchsparse transposes them before the call). fp32.
The scans are synthetic outdoor LiDAR-like scenes (ground, buildings, cars) at the stride-4 (0.2 m) grid.
"""
import torch

META = {
    "name": "sparse_devoxelize_trilinear",
    "level": 2,
    "category": "sparse_conv",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"scans": 1, "points": 300, "extent": 12, "C": 32},
        "ragged": {"scans": 2, "points": 517, "extent": 15, "C": 40},
        "large": {"scans": 2, "points": 122_880, "extent": 100, "C": 128},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over blocks of 32 points; per corner k the "
                      "point block's idx and weight column is loaded once, the 32 voxel rows are gathered as "
                      "a [32, BC] tile (whole contiguous feature rows) and accumulated with the weights; one "
                      "[32, C] store per block; no autotune.",
    "deterministic": True,
}
CORNERS = torch.tensor([(dx, dy, dz) for dx in (0, 1) for dy in (0, 1) for dz in (0, 1)])


def _scan_points(n: int, extent: int, g: torch.Generator) -> torch.Tensor:
    """n points on a LiDAR-like scene in voxel units: ground plane, a few buildings and cars (box faces)."""
    e = float(extent)
    faces = [(torch.zeros(3), torch.tensor([e, 0.0, 0.0]), torch.tensor([0.0, e, 0.0]))]
    for i in range(12):
        big = i < 4
        c = torch.rand(3, generator=g) * torch.tensor([0.9 * e, 0.9 * e, 0.0])
        s = torch.rand(3, generator=g) * (torch.tensor([0.12 * e, 0.12 * e, 40.0]) if big else torch.tensor([3.0, 8.0, 1.0])) \
            + (torch.tensor([0.04 * e, 0.04 * e, 15.0]) if big else torch.tensor([8.0, 18.0, 6.0])) * 0.5
        sx, sy, sz = torch.tensor([s[0], 0.0, 0.0]), torch.tensor([0.0, s[1], 0.0]), torch.tensor([0.0, 0.0, s[2]])
        faces += [(c + sz, sx, sy), (c, sx, sz), (c, sy, sz), (c + sx, sy, sz), (c + sy, sx, sz)]
    area = torch.tensor([float(torch.linalg.cross(u, v).norm()) for _, u, v in faces])
    face = torch.multinomial(area / area.sum(), n, replacement=True, generator=g)
    o = torch.stack([f[0] for f in faces])[face]
    u = torch.stack([f[1] for f in faces])[face]
    v = torch.stack([f[2] for f in faces])[face]
    a, b = torch.rand(n, 1, generator=g), torch.rand(n, 1, generator=g)
    return o + a * u + b * v + 0.1 * torch.randn(n, 3, generator=g) + 1.0


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """feat [Nv, C] (voxel features), idx [P, 8] int32 (-1 = missing corner), weight [P, 8]."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    pts = [_scan_points(s["points"], s["extent"], g) for _ in range(s["scans"])]
    batch = torch.cat([torch.full((len(p),), b, dtype=torch.int64) for b, p in enumerate(pts)])
    p = torch.cat(pts).double()
    base = torch.floor(p).long()
    frac = p - base

    def key(c, bidx):
        return ((bidx * 1024 + c[..., 0]) * 1024 + c[..., 1]) * 1024 + c[..., 2]

    voxels = torch.unique(key(base, batch))                       # the occupied voxels, sorted (row order)
    corner_keys = key(base[:, None, :] + CORNERS[None], batch[:, None])   # [P, 8]
    pos = torch.searchsorted(voxels, corner_keys).clamp(max=len(voxels) - 1)
    found = voxels[pos] == corner_keys
    idx = torch.where(found, pos, torch.full_like(pos, -1))
    w = torch.where(CORNERS[None].bool(), frac[:, None, :], 1.0 - frac[:, None, :]).prod(-1)
    w = torch.where(found, w, torch.zeros_like(w))
    w = w / w.sum(1, keepdim=True).clamp_min(1e-8)
    feat = torch.randn(len(voxels), s["C"], generator=g)
    return feat.to(dt).to(device), idx.to(torch.int32).to(device), w.to(dt).to(device)


def reference(feat: torch.Tensor, idx: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    ok = idx >= 0
    rows = feat.double()[idx.clamp(min=0).long()]                # [P, 8, C]
    w = torch.where(ok, weight.double(), torch.zeros_like(weight, dtype=torch.float64))
    return (rows * w[..., None]).sum(1).to(feat.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    P = s["scans"] * s["points"]
    return {"bytes": 4 * P * 8 * 2 + 4 * P * 8 * s["C"] + 4 * P * s["C"], "flops": 2 * P * 8 * s["C"]}
