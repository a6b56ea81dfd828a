"""Bullet3 GPU sweep-and-prune set-up (b3GpuSapBroadphase::calculateOverlappingPairs): pick the sweep
axis by the variance of the AABB centres, then build the radix-sort keys along that axis.

Over the n small AABBs (all_aabbs rows listed by small_mapping, the b3SapAabb layout: min xyz + w,
max xyz + w, where min.w holds the body index bits):
    c_i = (min_i + max_i) / 2,   s = sum c_i,   s2 = sum c_i * c_i,   v = s2 - s * s / n
    axis = 0; if v[1] > v[0]: axis = 1; if v[2] > v[axis]: axis = 2
then flipFloatKernel: sort_data[i] = (FloatFlip(min_i[axis]), i) with FloatFlip(f) = f ^ (sign(f) ?
0xFFFFFFFF : 0x80000000) on the float bits (an order-preserving unsigned key, stored as int32 bits).
Returns (v [3] fp32, sort_data [n, 2] int32).
"""
import torch

META = {
    "name": "bullet3_sap_axis_sort_keys",
    "level": 2,
    "category": "physics",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"N": 200, "L": 3},
        "ragged": {"N": 777, "L": 5},
        "large": {"N": 1048576, "L": 16},
    },
    "baseline_notes": "Two launches over cdiv(n, 1024) programs: the first gathers [1024, 4] min/max tiles "
                      "through the small-AABB mapping, reduces the centres and their squares in registers "
                      "and adds them into an fp64 moments buffer [8] with one 3-lane atomic per program; the "
                      "second recomputes v and the axis from the moments in every program, gathers min[axis] "
                      "and writes the FloatFlip keys and indices (program 0 also writes v); 4 warps.",
    "deterministic": True,
}
SCENE_LO = (-1024.0, -64.0, -512.0)
SCENE_HI = (1024.0, 192.0, 512.0)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """all_aabbs [n + L, 8] fp32 (b3SapAabb rows) and small_mapping [n] int32 (rows of the small AABBs)."""
    s = META["sizes"][size]
    n, n_large = s["N"], s["L"]
    total = n + n_large
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    lo, hi = torch.tensor(SCENE_LO), torch.tensor(SCENE_HI)
    centre = lo + (hi - lo) * torch.rand(total, 3, generator=g)
    half = 0.25 + 1.25 * torch.rand(total, 3, generator=g)
    large = torch.randperm(total, generator=g)[:n_large]
    half[large] = torch.tensor([4096.0, 0.5, 4096.0]) * (0.5 + torch.rand(n_large, 1, generator=g))
    aabbs = torch.zeros(total, 8)
    aabbs[:, 0:3] = centre - half
    aabbs[:, 4:7] = centre + half
    aabbs[:, 3] = torch.arange(total, dtype=torch.int32).view(torch.float32)  # m_minIndices[3] = body index
    small = torch.ones(total, dtype=torch.bool)
    small[large] = False
    mapping = torch.nonzero(small).flatten().to(torch.int32)
    return aabbs.to(dtype=dt, device=device), mapping.to(device)


def reference(all_aabbs: torch.Tensor, small_mapping: torch.Tensor) -> tuple:
    rows = all_aabbs[small_mapping.long()]
    n = rows.shape[0]
    centre = (rows[:, 0:3].double() + rows[:, 4:7].double()) * 0.5
    s = centre.sum(dim=0)
    s2 = (centre * centre).sum(dim=0)
    v = s2 - s * s / n
    axis = 0
    if v[1] > v[0]:
        axis = 1
    if v[2] > v[axis]:
        axis = 2
    bits = rows[:, axis].contiguous().view(torch.int32)
    keys = torch.where(bits < 0, ~bits, bits ^ torch.tensor(-2 ** 31, dtype=torch.int32, device=bits.device))
    index = torch.arange(n, dtype=torch.int32, device=bits.device)
    return v.to(all_aabbs.dtype), torch.stack([keys, index], dim=1)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    return {"bytes": n * (4 + 32 + 4 + 32 + 8), "flops": 12 * n}
