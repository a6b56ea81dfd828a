"""Exact (erf) GeGLU backward of a Gemma MLP (unsloth geglu _exact_backward_kernel): from dh, gate e and up g, return h = gelu(e) * g, the up gradient dh * gelu(e) and the gate gradient dh * g * gelu'(e)."""
import math

import torch

META = {
    "name": "geglu_backward",
    "level": 2,
    "category": "fused",
    "dtypes": ["float16", "bfloat16", "float32"],
    "tolerance": {"float16": {"atol": 1e-2, "rtol": 1e-2}, "bfloat16": {"atol": 3e-2, "rtol": 3e-2},
                  "float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"M": 16, "N": 1000},
        "ragged": {"M": 1001, "N": 11008},
        "large": {"M": 8192, "N": 14336},
    },
    "baseline_notes": "Flat elementwise kernel over the three [M, N] inputs, BLOCK=1024, fp32 math (erf for the "
                      "exact GELU, exp for its derivative), three stores in the input dtype; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """dh, e and g [M, N] of standard normals."""
    s = META["sizes"][size]
    dt = getattr(torch, dtype or META["dtypes"][0])
    g = torch.Generator().manual_seed(seed)
    return tuple(torch.randn(s["M"], s["N"], generator=g).to(dt).to(device) for _ in range(3))


def reference(dh: torch.Tensor, e: torch.Tensor, g: torch.Tensor):
    dhf, ef, gf = dh.float(), e.float(), g.float()
    cdf = 0.5 * (1.0 + torch.erf(ef / math.sqrt(2.0)))
    f = ef * cdf
    pdf = torch.exp(-0.5 * ef * ef) / math.sqrt(2 * math.pi)
    return ((f * gf).to(dh.dtype), (dhf * f).to(dh.dtype), (dhf * gf * (cdf + ef * pdf)).to(dh.dtype))


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["M"] * s["N"]
    return {"bytes": 6 * n * getattr(torch, dtype or META["dtypes"][0]).itemsize, "flops": 20 * n}
