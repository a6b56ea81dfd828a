"""Weight normalisation along dim 0 (torch._weight_norm_interface(v, g, dim=0)): w = g * v / ||v|| per output row, returning w and the fp32 row norms."""
import torch

META = {
    "name": "weight_norm",
    "level": 1,
    "category": "norm",
    "dtypes": ["float32", "bfloat16"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}, "bfloat16": {"atol": 1e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"N": 12, "K": 300},
        "ragged": {"N": 1001, "K": 3001},
        "large": {"N": 4096, "K": 36864},
    },
    "baseline_notes": "One program per output row, 4096-column chunks: a sum-of-squares loop, then a loop that "
                      "scales by g / norm and stores (the second read hits L2); 8 warps; norm stored in fp32.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """v [N, K] (the direction, fp32 master weights by default) and g [N, 1] fp32 (the magnitude)."""
    s = META["sizes"][size]
    gen = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    v = (torch.randn(s["N"], s["K"], generator=gen) / s["K"] ** 0.5).to(dt)
    g = 0.5 + torch.rand(s["N"], 1, generator=gen)
    return v.to(device), g.to(device)


def reference(v: torch.Tensor, g: torch.Tensor) -> tuple:
    norm = v.float().norm(dim=1, keepdim=True)
    return (v.float() * (g / norm)).to(v.dtype), norm


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": 2 * s["N"] * s["K"] * item + 8 * s["N"], "flops": 4 * s["N"] * s["K"]}
