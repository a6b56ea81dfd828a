"""GroupNorm over [N, C, H, W] with 32 groups and affine weight/bias, as in Stable Diffusion UNet resnet blocks."""
import torch

META = {
    "name": "group_norm",
    "level": 2,
    "category": "norm",
    "dtypes": ["float16", "bfloat16", "float32"],
    "tolerance": {"float16": {"atol": 1e-2, "rtol": 1e-2},
                  "bfloat16": {"atol": 3e-2, "rtol": 2e-2},
                  "float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 2, "C": 32, "H": 8, "W": 8, "G": 8},
        "ragged": {"N": 3, "C": 96, "H": 31, "W": 31, "G": 32},
        "large": {"N": 16, "C": 512, "H": 64, "W": 64, "G": 32},
    },
    "baseline_notes": "One program per (sample, group), looping over the group's contiguous "
                      "(C/G)*H*W elements in 1024-element chunks twice: sum and sum of squares in "
                      "fp32, then normalise with the per-channel weight and bias; no autotune.",
    "deterministic": True,
}
EPS = 1e-5


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [N, C, H, W], weight [C] near 1, bias [C] near 0, and the group count."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(s["N"], s["C"], s["H"], s["W"], generator=g)
    w = 1 + 0.1 * torch.randn(s["C"], generator=g)
    b = 0.1 * torch.randn(s["C"], generator=g)
    dt = getattr(torch, dtype or META["dtypes"][0])
    return tuple(t.to(device=device, dtype=dt) for t in (x, w, b)) + (s["G"],)


def reference(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor, groups: int) -> torch.Tensor:
    y = torch.nn.functional.group_norm(x.float(), groups, w.float(), b.float(), EPS)
    return y.to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    n = s["N"] * s["C"] * s["H"] * s["W"]
    return {"bytes": (2 * n + 2 * s["C"]) * item, "flops": 7 * n}
