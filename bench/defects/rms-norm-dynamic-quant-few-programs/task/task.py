"""RMSNorm fused with dynamic per-token int8 quantisation (vLLM rms_norm_dynamic_per_token_quant): q = round(y / s), s = absmax(y) / 127, y = x * rsqrt(mean(x^2) + eps) * w."""
import torch

META = {
    "name": "rms_norm_dynamic_quant",
    "level": 2,
    "category": "norm",
    "dtypes": ["float16", "bfloat16"],
    "tolerance": {"float16": {"atol": 1, "rtol": 0}, "bfloat16": {"atol": 1, "rtol": 0}},
    "sizes": {
        "small": {"T": 40, "H": 256},
        "ragged": {"T": 3001, "H": 5120},
        "large": {"T": 16384, "H": 8192},
    },
    "baseline_notes": "One program per token row, BLOCK = next_power_of_2(H), the row in registers: sum of squares "
                      "in fp32, weight, absmax, scale store, floor(y / scale + 0.5) clamped to int8; 8 warps; "
                      "no autotune.",
    "deterministic": True,
}

EPS = 1e-6


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [T, H] and the norm weight [H] in the dtype."""
    s = META["sizes"][size]
    dt = getattr(torch, dtype or META["dtypes"][0])
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(s["T"], s["H"], generator=g).to(dt)
    w = (1.0 + 0.1 * torch.randn(s["H"], generator=g)).to(dt)
    return x.to(device), w.to(device)


def reference(x: torch.Tensor, w: torch.Tensor):
    xf = x.float()
    y = xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + EPS) * w.float()
    scale = (y.abs().amax(-1, keepdim=True) / 127.0).clamp_min(1e-10)
    q = torch.floor(y / scale + 0.5).clamp(-128, 127).to(torch.int8)
    return q, scale


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    n = s["T"] * s["H"]
    return {"bytes": n * (item + 1) + s["H"] * item + 4 * s["T"], "flops": 6 * n}
