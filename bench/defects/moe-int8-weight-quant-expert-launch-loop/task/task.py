"""Online int8 weight-only quantization of a MoE layer's expert weights at load time (vLLM's
experts_int8 method): each output channel of every expert's w13 (fused gate/up) and w2 (down)
gets scale = absmax / 127 and the weights are rounded to int8."""
import torch

META = {
    "name": "moe_experts_int8_weight_quant",
    "level": 2,
    "category": "quantization",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 0.0, "rtol": 1e-6}},
    "sizes": {
        "small": {"E": 4, "H": 64, "F": 48},
        "ragged": {"E": 5, "H": 72, "F": 40},
        "large": {"E": 128, "H": 2048, "F": 768},
    },
    "baseline_notes": "One launch per weight tensor over all experts' channels: a grid of (E * rows) / 4 programs, "
                      "each loading 4 channels x next_power_of_2(cols) in registers, fp32 absmax, scale = absmax / 127, "
                      "IEEE division, floor(+0.5), clamp to +-127, int8 store and one fp32 scale per channel; "
                      "4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """w13 [E, 2 * F, H] and w2 [E, H, F] expert weights (bf16, std 0.02 with per-channel spread)."""
    s = META["sizes"][size]
    dt = getattr(torch, dtype or META["dtypes"][0])
    g = torch.Generator(device=device).manual_seed(seed)
    E, H, F = s["E"], s["H"], s["F"]
    w13 = torch.randn(E, 2 * F, H, generator=g, device=device) * 0.02
    w13 = w13 * (0.5 + torch.rand(E, 2 * F, 1, generator=g, device=device))
    w2 = torch.randn(E, H, F, generator=g, device=device) * 0.02
    w2 = w2 * (0.5 + torch.rand(E, H, 1, generator=g, device=device))
    return w13.to(dt), w2.to(dt)


def _quant(w: torch.Tensor) -> tuple:
    x = w.float()
    scale = x.abs().amax(dim=-1, keepdim=True) * (1.0 / 127.0)
    q = torch.floor(x / scale + 0.5).clamp(-127, 127).to(torch.int8)
    return q, scale.squeeze(-1)


def reference(w13: torch.Tensor, w2: torch.Tensor) -> tuple:
    """(w13 int8, w13 scales fp32 [E, 2F], w2 int8, w2 scales fp32 [E, H])."""
    q13, s13 = _quant(w13)
    q2, s2 = _quant(w2)
    return q13, s13, q2, s2


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = 3 * s["E"] * s["H"] * s["F"]
    rows = s["E"] * (2 * s["F"] + s["H"])
    return {"bytes": 3 * n + 4 * rows, "flops": 4 * n}
