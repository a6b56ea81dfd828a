"""Diagonal linear recurrence of an RG-LRU / Hawk layer: h_t = a_t * h_{t-1} + x_t along the sequence for every (batch, channel), h_{-1} = 0, fp32 state, result in the input dtype."""
import torch

META = {
    "name": "linear_recurrence",
    "level": 2,
    "category": "scan",
    "dtypes": ["bfloat16", "float16"],
    "tolerance": {"bfloat16": {"atol": 3e-2, "rtol": 2e-2}, "float16": {"atol": 5e-3, "rtol": 5e-3}},
    "sizes": {
        "small": {"B": 2, "L": 150, "D": 96},
        "ragged": {"B": 3, "L": 1001, "D": 1000},
        "large": {"B": 8, "L": 4096, "D": 2560},
    },
    "baseline_notes": "Grid (batch, 64-channel block): the sequence in 64-step chunks, each chunk scanned with "
                      "tl.associative_scan over (a, x) pairs, the carried state folded into the chunk's first step; "
                      "4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """a [B, L, D] decays in (0, 1) (a = exp(-c * softplus(lambda) * r_t) as RG-LRU gates give), x [B, L, D] gated
    inputs scaled by sqrt(1 - a^2)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    lam = torch.rand(1, 1, s["D"], generator=g) * 4.0 + 1.0
    r = torch.sigmoid(torch.randn(s["B"], s["L"], s["D"], generator=g))
    a = torch.exp(-8.0 * torch.nn.functional.softplus(-lam) * r - 0.01)
    x = torch.sqrt(1 - a * a) * torch.randn(s["B"], s["L"], s["D"], generator=g)
    return a.to(dt).to(device), x.to(dt).to(device)


def reference(a: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    af, xf = a.float(), x.float()
    h = torch.zeros_like(xf[:, 0])
    out = torch.empty_like(xf)
    for t in range(a.shape[1]):
        h = af[:, t] * h + xf[:, t]
        out[:, t] = h
    return out.to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["L"] * s["D"]
    return {"bytes": 3 * n * getattr(torch, dtype or META["dtypes"][0]).itemsize, "flops": 2 * n}
