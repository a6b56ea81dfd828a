"""Instance normalisation with affine weights (torch.nn.functional.instance_norm(x, weight=w, bias=b, eps=1e-5)) on NCHW features: each (sample, channel) plane normalised by its own mean and biased variance."""
import torch

META = {
    "name": "instance_norm",
    "level": 1,
    "category": "norm",
    "dtypes": ["bfloat16", "float16"],
    "tolerance": {"bfloat16": {"atol": 3e-2, "rtol": 2e-2}, "float16": {"atol": 5e-3, "rtol": 5e-3}},
    "sizes": {
        "small": {"N": 2, "C": 3, "H": 20, "W": 30},
        "ragged": {"N": 3, "C": 37, "H": 61, "W": 67},
        "large": {"N": 16, "C": 256, "H": 128, "W": 128},
    },
    "baseline_notes": "One program per (sample, channel) plane: a 1024-element loop for the fp32 sum and sum of "
                      "squares, then a second loop that normalises and stores; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [N, C, H, W] (per-plane offset and scale, as style-transfer / GAN features), weight and bias [C] fp32, eps."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.randn(s["N"], s["C"], s["H"], s["W"], generator=g)
    x = x * (1.0 + torch.rand(s["N"], s["C"], 1, 1, generator=g)) + torch.randn(s["N"], s["C"], 1, 1, generator=g)
    w = 1.0 + 0.1 * torch.randn(s["C"], generator=g)
    b = 0.1 * torch.randn(s["C"], generator=g)
    return x.to(dt).to(device), w.to(device), b.to(device), 1e-5


def reference(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor, eps: float) -> torch.Tensor:
    return torch.nn.functional.instance_norm(x.float(), weight=w, bias=b, eps=eps).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["N"] * s["C"] * s["H"] * s["W"]
    return {"bytes": 2 * n * getattr(torch, dtype or META["dtypes"][0]).itemsize + 8 * s["C"], "flops": 7 * n}
