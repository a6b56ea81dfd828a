"""Causal depthwise conv1d + SiLU over packed variable-length sequences (mamba causal_conv1d_fn with query_start_loc, as vLLM runs Mamba-2 prefill): out[t, d] = silu(bias[d] + sum_k w[d, k] * x[t - W + 1 + k, d]), zero before each sequence's start."""
import torch

META = {
    "name": "causal_conv1d_varlen",
    "level": 2,
    "category": "fused",
    "dtypes": ["float16", "bfloat16"],
    "tolerance": {"float16": {"atol": 5e-3, "rtol": 5e-3}, "bfloat16": {"atol": 3e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"SEQS": 3, "LEN": 20, "D": 64, "W": 4},
        "ragged": {"SEQS": 7, "LEN": 150, "D": 1000, "W": 4},
        "large": {"SEQS": 64, "LEN": 512, "D": 8192, "W": 4},
    },
    "baseline_notes": "One launch over (sequence, 256-channel block): each program reads its sequence's bounds from "
                      "query_start_loc on the device and walks it in 32-token tiles, the W taps unrolled with "
                      "tl.static_range (shifted masked loads); fp32 accumulation, SiLU.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [T, D] (packed tokens, channels last), weight [D, W], bias [D], query_start_loc [SEQS + 1] int32;
    sequence lengths vary around LEN."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    lens = torch.randint(s["LEN"] // 2, 3 * s["LEN"] // 2 + 1, (s["SEQS"],), generator=g)
    qsl = torch.zeros(s["SEQS"] + 1, dtype=torch.int32)
    qsl[1:] = torch.cumsum(lens, 0).to(torch.int32)
    x = torch.randn(int(qsl[-1]), s["D"], generator=g).to(dt)
    w = (torch.randn(s["D"], s["W"], generator=g) / s["W"] ** 0.5).to(dt)
    b = (0.1 * torch.randn(s["D"], generator=g)).to(dt)
    return x.to(device), w.to(device), b.to(device), qsl.to(device)


def reference(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor, qsl: torch.Tensor) -> torch.Tensor:
    W = w.shape[1]
    out = torch.empty_like(x)
    bounds = qsl.tolist()
    for s0, s1 in zip(bounds[:-1], bounds[1:], strict=True):
        seq = x[s0:s1].float().t()[None]                      # [1, D, L]
        y = torch.nn.functional.conv1d(torch.nn.functional.pad(seq, (W - 1, 0)), w.float()[:, None, :],
                                       b.float(), groups=w.shape[0])
        out[s0:s1] = torch.nn.functional.silu(y[0].t()).to(x.dtype)
    return out


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    n = s["SEQS"] * s["LEN"] * s["D"]
    return {"bytes": 2 * n * item + s["D"] * (s["W"] + 1) * item, "flops": (2 * s["W"] + 4) * n}
