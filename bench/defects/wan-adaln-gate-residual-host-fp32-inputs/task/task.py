"""Wan2.1 DiT block epilogue, fused: gated residual x = x + y * gate, then the next sub-layer's
adaLN input h = LayerNorm(x) * (1 + scale) + shift (LayerNorm without affine, eps 1e-6), with
per-sample modulation vectors (the chunks of the time-conditioned modulation, fp32 [B, D]).
x and y bf16 [B, L, D]; outputs (x_new, h), both bf16 [B, L, D]."""
import torch

META = {
    "name": "dit_gate_residual_adaln",
    "level": 2,
    "category": "normalization",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 6e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"B": 2, "L": 5, "D": 64},
        "ragged": {"B": 2, "L": 7, "D": 100},
        "large": {"B": 1, "L": 32760, "D": 5120},
    },
    "baseline_notes": "One program per token row, the whole row in registers (BLOCK_D = next_pow2(D), 8 warps): "
                      "bf16 x and y loaded and upcast in-kernel, fp32 gate/shift/scale rows of the row's sample, "
                      "mean/var in fp32, both outputs stored as bf16.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x, y [B, L, D] (activation dtype), gate, shift, scale [B, D] fp32."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    B, L, D = s["B"], s["L"], s["D"]
    x = torch.randn(B, L, D, generator=g) * 2.0 + 0.5
    y = torch.randn(B, L, D, generator=g)
    gate = torch.randn(B, D, generator=g) * 0.1
    shift = torch.randn(B, D, generator=g) * 0.1
    scale = torch.randn(B, D, generator=g) * 0.1
    return (x.to(dt).to(device), y.to(dt).to(device), gate.to(device), shift.to(device), scale.to(device))


def reference(x, y, gate, shift, scale):
    xs = x.float() + y.float() * gate[:, None, :]
    x_new = xs.to(x.dtype)
    xf = x_new.float()
    h = torch.nn.functional.layer_norm(xf, (xf.shape[-1],), eps=1e-6)
    h = h * (1.0 + scale[:, None, :]) + shift[:, None, :]
    return x_new, h.to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["L"] * s["D"]
    return {"bytes": 4 * 2 * n + 12 * s["B"] * s["D"], "flops": 12 * n}
