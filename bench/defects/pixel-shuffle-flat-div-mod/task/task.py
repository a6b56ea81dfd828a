"""Pixel shuffle (F.pixel_shuffle(x, r)): [N, C r^2, H, W] -> [N, C, H r, W r], out[n, c, h r + i, w r + j] = x[n, c r^2 + i r + j, h, w]."""
import torch

META = {
    "name": "pixel_shuffle",
    "level": 1,
    "category": "layout",
    "dtypes": ["bfloat16", "float32"],
    "tolerance": {"bfloat16": {"atol": 0, "rtol": 0}, "float32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"N": 2, "C": 3, "H": 7, "W": 9, "R": 2},
        "ragged": {"N": 3, "C": 5, "H": 61, "W": 67, "R": 3},
        "large": {"N": 16, "C": 64, "H": 256, "W": 256, "R": 2},
    },
    "baseline_notes": "Grid (output row n*C*OH + oh, 1024-wide column block) with the upscale factor as a constexpr: "
                      "one scalar decode per program, per element only w = ow // R, j = ow % R (shifts); 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [N, C R^2, H, W] (the last conv of a super-resolution upsampler), R."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(s["N"], s["C"] * s["R"] ** 2, s["H"], s["W"], generator=g)
    return x.to(getattr(torch, dtype or META["dtypes"][0])).to(device), s["R"]


def reference(x: torch.Tensor, r: int) -> torch.Tensor:
    return torch.nn.functional.pixel_shuffle(x, r)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["N"] * s["C"] * s["R"] ** 2 * s["H"] * s["W"]
    return {"bytes": 2 * n * getattr(torch, dtype or META["dtypes"][0]).itemsize, "flops": 0}
