"""GroupNorm statistics on a channels_last activation: mean and rstd of each (sample, group) over its
C / G channels and all H * W pixels (the statistics pass of an NHWC GroupNorm forward)."""
import torch

META = {
    "name": "group_norm_stats_nhwc",
    "level": 2,
    "category": "norm",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 1e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"N": 2, "C": 64, "H": 12, "W": 16, "G": 4},
        "ragged": {"N": 3, "C": 40, "H": 17, "W": 23, "G": 4},
        "large": {"N": 8, "C": 512, "H": 128, "W": 128, "G": 32},
    },
    "baseline_notes": "One program per (sample, group) walking the pixels in [512, C/G] tiles whose channel axis is "
                      "the contiguous one (the group's 16 fp16 channels = one 32-byte sector per pixel); fp32 sum and "
                      "sum of squares; 8 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [N, C, H, W] in torch.channels_last memory format (NHWC in memory), num_groups G, eps."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.randn(s["N"], s["C"], s["H"], s["W"], generator=g) * 1.5 + 0.3
    x = x.to(dt).to(device).contiguous(memory_format=torch.channels_last)
    return x, s["G"], 1e-6


def reference(x: torch.Tensor, num_groups: int, eps: float) -> tuple:
    # the mean / rstd that torch.native_group_norm saves for the backward, in float64
    xg = x.double().reshape(x.shape[0], num_groups, -1)
    mean = xg.mean(-1)
    var = xg.var(-1, unbiased=False)
    return mean.float(), torch.rsqrt(var + eps).float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["N"] * s["C"] * s["H"] * s["W"]
    return {"bytes": 2 * n + 8 * s["N"] * s["G"], "flops": 3 * n}
