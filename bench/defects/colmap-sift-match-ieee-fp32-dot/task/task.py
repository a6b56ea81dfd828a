"""One-way SIFT descriptor matching with COLMAP's ratio and distance tests (SiftMatchGPU / FindBestMatchesOneWay).

COLMAP stores SIFT descriptors as 128 uint8 values: the L2-normalised descriptor scaled by 512 and
rounded (FeatureDescriptorsToUnsignedByte). Matching image 1 against image 2 takes, for every feature
i1, the integer dot products dots[i1, i2] = <d1[i1], d2[i2]> with all features of image 2, keeps the
best and second-best dot (COLMAP's loop order: a tie with the best becomes the second best, the first
index wins), turns them into angular distances dist = acos(min(dot / 512^2, 1)) and accepts the best
i2 when dist_best <= max_distance (0.7) and dist_best < max_ratio (0.8) * dist_second. Returns
(match [N1] int32: the accepted i2 or -1, best_dist [N1] fp32: the best angular distance, acos(0) =
pi/2 when no dot is positive). The mutual (cross-check) pass is the same computation with the images swapped.
"""
import torch

META = {
    "name": "sift_match_ratio_test",
    "level": 2,
    "category": "feature-matching",
    "dtypes": ["uint8"],
    "tolerance": {"uint8": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"N1": 200, "N2": 300},
        "ragged": {"N1": 77, "N2": 150},
        "large": {"N1": 8192, "N2": 8192},
    },
    "baseline_notes": "Row blocks of 64 features of image 1 per program (128 programs at large) walk image 2 in "
                      "tiles of 64 features; each tile's dot products come from a K loop of 32-wide uint8 chunks "
                      "cast to fp16 (0..255 is exact, so is every integer dot < 2^24 in the fp32 accumulator) "
                      "and tensor-core tl.dot; tile best / first arg-best / second best are merged into running "
                      "values, then the acos distance and COLMAP's two tests. 4 warps, no autotune.",
    "deterministic": True,
}
DIM = 128
MAX_RATIO = 0.8
MAX_DISTANCE = 0.7


def _to_colmap_uint8(desc: torch.Tensor) -> torch.Tensor:
    """SIFT-style normalisation (L2, clip at 0.2, L2 again), then COLMAP's *512 -> uint8."""
    desc = desc / desc.norm(dim=1, keepdim=True)
    desc = desc.clamp(max=0.2)
    desc = desc / desc.norm(dim=1, keepdim=True)
    return torch.round(desc * 512.0).clamp(0, 255).to(torch.uint8)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """desc1 [N1, 128] uint8, desc2 [N2, 128] uint8, max_ratio, max_distance.

    About 60% of the features of image 1 are noisy re-detections of a feature of image 2 (the rest have
    no counterpart), so both tests accept and reject a realistic share."""
    s = META["sizes"][size]
    n1, n2 = s["N1"], s["N2"]
    g = torch.Generator().manual_seed(seed)
    raw2 = torch.rand(n2, DIM, generator=g).pow(3.0)
    raw1 = torch.rand(n1, DIM, generator=g).pow(3.0)
    seen = torch.rand(n1, generator=g) < 0.6
    partner = torch.randint(0, n2, (n1,), generator=g)
    noise = torch.rand(n1, 1, generator=g) * 0.6
    noisy = (raw2[partner] + noise * torch.rand(n1, DIM, generator=g).pow(3.0))
    raw1 = torch.where(seen[:, None], noisy, raw1)
    return (_to_colmap_uint8(raw1).to(device), _to_colmap_uint8(raw2).to(device), MAX_RATIO, MAX_DISTANCE)


def reference(desc1: torch.Tensor, desc2: torch.Tensor, max_ratio: float, max_distance: float) -> tuple:
    dots = desc1.double() @ desc2.double().T                      # exact integers
    n2 = dots.shape[1]
    best, best_idx = dots.max(dim=1)                              # first index among ties
    if n2 > 1:
        others = dots.scatter(1, best_idx[:, None], -1.0)
        second = others.max(dim=1).values.clamp(min=0.0)
    else:
        second = torch.zeros_like(best)
    norm = 1.0 / (512.0 * 512.0)
    best_dist = torch.acos((best * norm).clamp(max=1.0))
    second_dist = torch.acos((second * norm).clamp(max=1.0))
    ok = (best > 0) & (best_dist <= max_distance) & (best_dist < max_ratio * second_dist)
    match = torch.where(ok, best_idx, torch.full_like(best_idx, -1)).to(torch.int32)
    return match, best_dist.to(torch.float32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": DIM * (s["N1"] + s["N2"]) + 8 * s["N1"], "flops": 2 * DIM * s["N1"] * s["N2"]}
