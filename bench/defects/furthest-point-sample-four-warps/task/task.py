"""PointNet++ furthest point sampling: from point 0, repeatedly pick the point farthest from the set picked so far
(each point's distance to the set is its running minimum squared distance to the picked points)."""
import torch

META = {
    "name": "furthest_point_sample",
    "level": 2,
    "category": "sampling",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"B": 3, "N": 300, "S": 40},
        "ragged": {"B": 5, "N": 1000, "S": 129},
        "large": {"B": 32, "N": 8192, "S": 1024},
    },
    "baseline_notes": "One program per cloud holding the whole cloud and its running distances in registers "
                      "(BLOCK = next_power_of_2(N)); S - 1 serial steps of min-update + tl.argmax; 16 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """xyz [B, N, 3]: scene points on a 1/64 grid (voxel-downsampled scans, 4 x 4 x 4 m), npoint S."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    xyz = torch.randint(0, 256, (s["B"], s["N"], 3), generator=g).to(torch.float32) / 64.0
    return xyz.to(dt).to(device), s["S"]


def reference(xyz: torch.Tensor, npoint: int) -> torch.Tensor:
    B, N, _ = xyz.shape
    x, y, z = xyz[..., 0], xyz[..., 1], xyz[..., 2]
    dist = torch.full((B, N), 1e10, dtype=xyz.dtype, device=xyz.device)
    idx = torch.zeros((B, npoint), dtype=torch.int32, device=xyz.device)
    last = torch.zeros(B, dtype=torch.long, device=xyz.device)
    ar = torch.arange(B, device=xyz.device)
    for i in range(1, npoint):
        dx = x - x[ar, last][:, None]
        dy = y - y[ar, last][:, None]
        dz = z - z[ar, last][:, None]
        dist = torch.minimum(dist, dx * dx + dy * dy + dz * dz)
        last = torch.argmax(dist, dim=1)
        idx[:, i] = last.to(torch.int32)
    return idx


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 12 * s["B"] * s["N"] + 4 * s["B"] * s["S"], "flops": 9 * s["B"] * s["N"] * s["S"]}
