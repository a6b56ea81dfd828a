"""DiT adaptive LayerNorm modulation: y = LayerNorm(x) (no affine) * (1 + scale[b]) + shift[b], per sample b, fp32 math, result in x's dtype."""
import torch

META = {
    "name": "adaln_modulate",
    "level": 2,
    "category": "norm",
    "dtypes": ["bfloat16", "float16"],
    "tolerance": {"bfloat16": {"atol": 4e-2, "rtol": 2e-2}, "float16": {"atol": 5e-3, "rtol": 5e-3}},
    "sizes": {
        "small": {"B": 2, "S": 13, "D": 96},
        "ragged": {"B": 3, "S": 1001, "D": 1000},
        "large": {"B": 16, "S": 4096, "D": 1152},
    },
    "baseline_notes": "One program per token row (BLOCK = next_power_of_2(D)): mean and variance, normalise, then "
                      "the sample's scale and shift, one store; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [B, S, D] tokens, shift and scale [B, D] from the conditioning MLP, eps."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.randn(s["B"], s["S"], s["D"], generator=g) * 2 + 0.5
    shift = 0.2 * torch.randn(s["B"], s["D"], generator=g)
    scale = 0.2 * torch.randn(s["B"], s["D"], generator=g)
    return x.to(dt).to(device), shift.to(dt).to(device), scale.to(dt).to(device), 1e-6


def reference(x: torch.Tensor, shift: torch.Tensor, scale: torch.Tensor, eps: float) -> torch.Tensor:
    h = torch.nn.functional.layer_norm(x.float(), (x.shape[-1],), eps=eps)
    return (h * (1 + scale.float()[:, None]) + shift.float()[:, None]).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    it = getattr(torch, dtype or META["dtypes"][0]).itemsize
    n = s["B"] * s["S"] * s["D"]
    return {"bytes": 2 * n * it + 2 * s["B"] * s["D"] * it, "flops": 9 * n}
