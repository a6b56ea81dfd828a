"""Occupancy-head decoding of a 3-D semantic occupancy network (SurroundOcc / OpenOccupancy style).

The occupancy head emits class logits channel-first, [B, C, X, Y, Z] (the output of its last 3-D
convolution); inference turns them into a per-voxel semantic label (argmax over the C classes,
class 0 = free space) and the confidence of that label (the largest softmax probability).
"""
import torch

META = {
    "name": "occupancy_decode",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 1, "C": 5, "X": 6, "Y": 5, "Z": 4},
        "ragged": {"B": 2, "C": 17, "X": 10, "Y": 9, "Z": 7},
        "large": {"B": 1, "C": 17, "X": 200, "Y": 200, "Z": 16},
    },
    "baseline_notes": "Persistent grid of 40 programs (the A2's vector cores) looping over 1024-voxel blocks of one "
                      "sample; each block walks the C class planes with contiguous [1024] loads, keeping an online "
                      "max, argmax and rescaled exp-sum; label int32 and confidence 1/sum stored contiguously.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """logits [B, C, X, Y, Z]: mostly free space (class 0 favoured), a few confident semantic voxels."""
    s = META["sizes"][size]
    B, C, X, Y, Z = s["B"], s["C"], s["X"], s["Y"], s["Z"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    logits = torch.randn(B, C, X, Y, Z, generator=g) * 2.0
    logits[:, 0] += 3.0
    hot = torch.rand(B, X, Y, Z, generator=g) < 0.1
    cls = torch.randint(1, C, (B, X, Y, Z), generator=g)
    boost = torch.zeros(B, C, X, Y, Z).scatter_(1, cls[:, None], 6.0) * hot[:, None]
    return ((logits + boost).to(dt).to(device),)


def reference(logits: torch.Tensor) -> tuple:
    probs = torch.softmax(logits.double(), dim=1)
    conf, label = probs.max(dim=1)
    return label.to(torch.int32), conf.to(logits.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    V = s["B"] * s["X"] * s["Y"] * s["Z"]
    return {"bytes": 4 * V * s["C"] + 8 * V, "flops": 5 * V * s["C"]}
