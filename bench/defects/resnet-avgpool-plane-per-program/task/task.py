"""Global average pooling of a CNN head (nn.AdaptiveAvgPool2d(1) then flatten, torchvision ResNet.forward): out[n, c] = mean over h, w of x[n, c, h, w], NCHW input."""
import torch

META = {
    "name": "global_avg_pool2d",
    "level": 1,
    "category": "reduction",
    "dtypes": ["bfloat16", "float16"],
    "tolerance": {"bfloat16": {"atol": 1e-2, "rtol": 1e-2}, "float16": {"atol": 2e-3, "rtol": 2e-3}},
    "sizes": {
        "small": {"N": 2, "C": 96, "H": 7, "W": 7},
        "ragged": {"N": 3, "C": 301, "H": 5, "W": 9},
        "large": {"N": 256, "C": 2048, "H": 7, "W": 7},
    },
    "baseline_notes": "Grid over blocks of 64 (n, c) planes: one [64, 64] tile per program (64 planes x the 49 "
                      "pixels of each, padded to 64), fp32 row sums times 1 / (H * W), 64 outputs stored; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [N, C, H, W] contiguous: the last stage's post-ReLU activation."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    x = torch.relu(torch.randn(s["N"], s["C"], s["H"], s["W"], generator=g))
    return (x.to(getattr(torch, dtype or META["dtypes"][0])).to(device),)


def reference(x: torch.Tensor) -> torch.Tensor:
    return torch.flatten(torch.nn.functional.adaptive_avg_pool2d(x.float(), 1), 1).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    planes = s["N"] * s["C"]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": item * planes * (s["H"] * s["W"] + 1), "flops": planes * s["H"] * s["W"]}
