"""Qwen2-VL vision PatchEmbed: Conv3d with stride = kernel (2 x 14 x 14, 3 channels) on pre-flattened patches, i.e. patches [P, 1176] @ W^T, W [1280, 1176], no bias."""
import torch

META = {
    "name": "qwen2vl_patch_embed",
    "level": 2,
    "category": "matmul",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 2e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"P": 40, "K": 300, "N": 96},
        "ragged": {"P": 1000, "K": 1176, "N": 1280},
        "large": {"P": 16384, "K": 1176, "N": 1280},
    },
    "baseline_notes": "128x128x64 tl.dot tiles, fp32 accumulator, 8 warps, 3 stages; K = 1176 masked in the last step.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Flattened pixel patches [P, K] of normals and a conv weight [N, K] scaled by 1/sqrt(K)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.randn(s["P"], s["K"], generator=g).to(dt)
    w = (torch.randn(s["N"], s["K"], generator=g) / s["K"] ** 0.5).to(dt)
    return x.to(device), w.to(device)


def reference(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    return (x.double() @ w.double().t()).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": (s["P"] * s["K"] + s["N"] * s["K"] + s["P"] * s["N"]) * item,
            "flops": 2 * s["P"] * s["K"] * s["N"]}
