"""Dynamic per-tensor symmetric int8 quantisation (vLLM scaled_int8_quant with scale=None, per-tensor): scale = absmax / 127, q = round(x / scale)."""
import torch

META = {
    "name": "int8_per_tensor_quant",
    "level": 1,
    "category": "quantization",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 1.0, "rtol": 0.0}},
    "sizes": {
        "small": {"M": 16, "N": 1000},
        "ragged": {"M": 301, "N": 5003},
        "large": {"M": 16384, "N": 8192},
    },
    "baseline_notes": "Two launches: a flat absmax kernel (tl.max per 4096-element program, one tl.atomic_max per "
                      "program into a zeroed fp32 scalar), then a flat quantise kernel reading the scale; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Activations [M, N]: normals with a few outlier columns (x 20), as LLM activations have."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(s["M"], s["N"], generator=g)
    x[:, :: max(1, s["N"] // 8)] *= 20.0
    return (x.to(getattr(torch, dtype or META["dtypes"][0])).to(device),)


def reference(x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    xf = x.float()
    scale = xf.abs().amax().clamp(min=1e-5).reshape(1) * (1.0 / 127.0)
    q = torch.floor(xf / scale + 0.5).clamp(-127, 127).to(torch.int8)
    return q, scale


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["M"] * s["N"]
    return {"bytes": 2 * n * getattr(torch, dtype or META["dtypes"][0]).itemsize + n, "flops": 3 * n}
