"""Dynamic voxelisation max-reduce (mmcv DynamicScatter, reduce='max'): voxel_feats[v, c] = max over the points p of voxel v of feats[p, c], points sorted by voxel (voxel_ptr is the CSR offset array)."""
import torch

META = {
    "name": "voxel_scatter_max",
    "level": 2,
    "category": "segment",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"V": 40, "C": 16},
        "ragged": {"V": 1337, "C": 37},
        "large": {"V": 120000, "C": 64},
    },
    "baseline_notes": "One program per voxel: walks its CSR range [voxel_ptr[v], voxel_ptr[v + 1]) in [8, 64] (point, "
                      "channel) tiles of contiguous rows, running max in registers, one store of the voxel's row; "
                      "2 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """feats [P, C] point features sorted by voxel, point2voxel [P] int32 (non-decreasing), voxel_ptr [V + 1] int32."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    # points per pillar: 1 + geometric (mean ~5), a long tail of dense pillars near the sensor
    u = torch.rand(s["V"], generator=g).clamp_min(1e-12)
    counts = 1 + torch.floor(torch.log(u) / torch.log(torch.tensor(0.8))).long().clamp_max(255)
    voxel_ptr = torch.zeros(s["V"] + 1, dtype=torch.long)
    voxel_ptr[1:] = torch.cumsum(counts, 0)
    P = int(voxel_ptr[-1])
    point2voxel = torch.repeat_interleave(torch.arange(s["V"]), counts)
    feats = torch.randn(P, s["C"], generator=g).to(getattr(torch, dtype or META["dtypes"][0]))
    return feats.to(device), point2voxel.to(torch.int32).to(device), voxel_ptr.to(torch.int32).to(device)


def reference(feats: torch.Tensor, point2voxel: torch.Tensor, voxel_ptr: torch.Tensor) -> torch.Tensor:
    V, C = voxel_ptr.numel() - 1, feats.shape[1]
    out = torch.full((V, C), float("-inf"), dtype=feats.dtype, device=feats.device)
    index = point2voxel.long()[:, None].expand(-1, C)
    return out.scatter_reduce(0, index, feats, reduce="amax", include_self=False)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    P = 5 * s["V"]  # expected points
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": item * (P + s["V"]) * s["C"] + 4 * (P + s["V"]), "flops": P * s["C"]}
