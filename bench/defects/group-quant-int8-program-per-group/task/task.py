"""Per-token-group int8 quantisation (vLLM per_token_group_quant_int8, group 128, DeepSeek-V3 block-quantised activations).
scale = max(absmax(group), 1e-10) * (1/127) in fp32; q = clamp(floor(x / scale + 0.5), -127, 127) as int8, x / scale
an IEEE division, so a correct kernel matches bit for bit.
"""
import torch

META = {
    "name": "per_token_group_quant_int8",
    "level": 2,
    "category": "fused",
    "dtypes": ["bfloat16", "float16"],
    "tolerance": {"bfloat16": {"atol": 0.0, "rtol": 1e-6}, "float16": {"atol": 0.0, "rtol": 1e-6}},
    "sizes": {
        "small": {"T": 6, "H": 640, "G": 128},
        "ragged": {"T": 1001, "H": 2048, "G": 128},
        "large": {"T": 16384, "H": 7168, "G": 128},
    },
    "baseline_notes": "Grid (token, block of 8 groups): an [8, 128] tile, absmax per group along axis 1, scale, "
                      "tl.div_rn, floor(+0.5), clamp; 4 warps; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [T, H] activations with outlier channels, and the group size."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(s["T"], s["H"], generator=g)
    x[:, :: max(1, s["H"] // 16)] *= 20
    return x.to(getattr(torch, dtype or META["dtypes"][0])).to(device), s["G"]


def reference(x: torch.Tensor, group: int) -> tuple:
    T, H = x.shape
    xg = x.float().view(T, H // group, group)
    scale = xg.abs().amax(dim=-1).clamp(min=1e-10) * (1.0 / 127.0)
    q = torch.floor(xg / scale[..., None] + 0.5).clamp(-127, 127).to(torch.int8)
    return q.view(T, H), scale


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    n = s["T"] * s["H"]
    return {"bytes": n * (item + 1) + 4 * n // s["G"], "flops": 4 * n}
