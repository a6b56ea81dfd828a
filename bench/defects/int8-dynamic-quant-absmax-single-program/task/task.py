"""Dynamic per-tensor symmetric int8 activation quantization (SmoothQuant W8A8 per-tensor activation path):
scale = max(absmax(x) / 127, 1e-10), q = round_half_away(clamp(x / scale, -127, 127)) as int8."""
import torch

QMAX = 127.0
MIN_SCALE = 1e-10

META = {
    "name": "int8_dynamic_per_tensor_quant",
    "level": 2,
    "category": "quantization",
    "dtypes": ["bfloat16"],
    # one int8 step where x / scale lands on a rounding tie differently
    "tolerance": {"bfloat16": {"atol": 1.0, "rtol": 1e-5}},
    "sizes": {
        "small": {"M": 8, "K": 320},
        "ragged": {"M": 7, "K": 1000},
        "large": {"M": 8192, "K": 8192},
    },
    "baseline_notes": "absmax: a grid of 8,192-element blocks, each reducing its block and folding it into one fp32 "
                      "amax with tl.atomic_max; quant: a grid of 8,192-element blocks that read the amax, divide "
                      "round half away from zero and cast to int8; block 0 also writes the scale.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Activations x [M, K] (tokens x hidden) with a few outlier channels, as in LLM hidden states."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.randn(s["M"], s["K"], generator=g)
    outliers = torch.randint(0, s["K"], (max(1, s["K"] // 512),), generator=g)
    x[:, outliers] *= 20.0
    return (x.to(dt).to(device),)


def reference(x: torch.Tensor) -> tuple:
    xf = x.double()
    scale = torch.clamp(xf.abs().max() / QMAX, min=MIN_SCALE)
    v = torch.clamp(xf / scale, -QMAX, QMAX)
    q = (torch.sign(v) * torch.floor(v.abs() + 0.5)).to(torch.int8)
    return q, scale.float().reshape(1)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["M"] * s["K"]
    return {"bytes": 2 * n + 2 * n + n + 4, "flops": 4 * n}
