"""One decode step of a depthwise causal conv1d with SiLU (mamba causal_conv1d_update): shift the rolling conv state by the new token, convolve, activate."""
import torch

META = {
    "name": "causal_conv1d_update",
    "level": 2,
    "category": "fused",
    "dtypes": ["bfloat16", "float16"],
    "tolerance": {"bfloat16": {"atol": 2e-2, "rtol": 2e-2}, "float16": {"atol": 2e-3, "rtol": 2e-3}},
    "sizes": {
        "small": {"B": 3, "D": 40, "W": 4},
        "ragged": {"B": 37, "D": 1000, "W": 4},
        "large": {"B": 256, "D": 10240, "W": 4},
    },
    "baseline_notes": "Grid (batch, 256-channel block): the W taps unrolled with tl.static_range, each a [256] vector "
                      "load of the state at stride W; fp32 accumulation, SiLU, new state and output stored; "
                      "out-of-place (the new state is returned).",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [B, D] (the new token), conv_state [B, D, W] (last W inputs, oldest first), weight [D, W], bias [D]."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.randn(s["B"], s["D"], generator=g).to(dt)
    state = torch.randn(s["B"], s["D"], s["W"], generator=g).to(dt)
    weight = (torch.randn(s["D"], s["W"], generator=g) / s["W"] ** 0.5).to(dt)
    bias = (0.1 * torch.randn(s["D"], generator=g)).to(dt)
    return x.to(device), state.to(device), weight.to(device), bias.to(device)


def reference(x, state, weight, bias) -> tuple:
    new_state = torch.cat([state[:, :, 1:], x[:, :, None]], dim=-1)
    y = (new_state.float() * weight.float()[None]).sum(-1) + bias.float()
    return torch.nn.functional.silu(y).to(x.dtype), new_state


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    n = s["B"] * s["D"]
    return {"bytes": (2 * n * s["W"] + 2 * n + s["D"] * (s["W"] + 1)) * item, "flops": 2 * n * s["W"] + 4 * n}
