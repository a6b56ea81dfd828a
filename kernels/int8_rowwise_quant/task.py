"""Per-token symmetric int8 activation quantisation (SmoothQuant / LLM.int8 style): absmax scale per row, round, clamp.

scale = max(absmax(row), 1e-5) * (1/127) in fp32; q = clamp(floor(x / scale + 0.5), -127, 127) as int8.
The scale is a multiply by the fp32 constant 1/127 (torch on CUDA turns a division by a Python
scalar into that multiply anyway) and x / scale is an IEEE division, so a correct kernel matches
bit for bit on every device.
"""
import torch

META = {
    "name": "int8_rowwise_quant",
    "level": 2,
    "category": "fused",
    "dtypes": ["float16", "bfloat16", "float32"],
    "tolerance": {"float16": {"atol": 0.0, "rtol": 1e-6},
                  "bfloat16": {"atol": 0.0, "rtol": 1e-6},
                  "float32": {"atol": 0.0, "rtol": 1e-6}},
    "sizes": {
        "small": {"M": 64, "N": 128},
        "ragged": {"M": 1000, "N": 1531},
        "large": {"M": 16384, "N": 4096},
    },
    "baseline_notes": "One program per row, BLOCK = next_power_of_2(N), the row in registers: "
                      "absmax, scale = absmax * (1/127), x / scale with tl.div_rn (IEEE), floor(+0.5), "
                      "clamp, int8 store plus one fp32 scale store; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Activations x [M, N] with a few large outlier channels, as LLM activations have."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(s["M"], s["N"], generator=g)
    x[:, :: max(1, s["N"] // 8)] *= 20
    return (x.to(device=device, dtype=getattr(torch, dtype or META["dtypes"][0])),)


def reference(x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    xf = x.float()
    scale = xf.abs().amax(dim=-1).clamp(min=1e-5) * (1.0 / 127.0)
    q = torch.floor(xf / scale[:, None] + 0.5).clamp(-127, 127).to(torch.int8)
    return q, scale


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": s["M"] * s["N"] * (item + 1) + 4 * s["M"], "flops": 4 * s["M"] * s["N"]}
