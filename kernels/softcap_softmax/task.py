"""Gemma 2 attention-logit soft-capping then softmax: softmax(cap * tanh(scores / cap)) over each score row."""
import torch

META = {
    "name": "softcap_softmax",
    "level": 2,
    "category": "softmax",
    "dtypes": ["float16", "bfloat16", "float32"],
    "tolerance": {"float16": {"atol": 1e-2, "rtol": 1e-2},
                  "bfloat16": {"atol": 2e-2, "rtol": 2e-2},
                  "float32": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"M": 64, "N": 128},
        "ragged": {"M": 1000, "N": 1531},
        "large": {"M": 8192, "N": 8192},
    },
    "baseline_notes": "One program per row, BLOCK = next_power_of_2(N): tanh soft-cap written as "
                      "2*sigmoid(2x)-1, then max-subtracted softmax in fp32; no autotune.",
    "deterministic": True,
}
CAP = 50.0


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Raw attention scores [M, N] (normals scaled by 30, so the cap bites) and the cap."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    x = 30 * torch.randn(s["M"], s["N"], generator=g)
    return x.to(device=device, dtype=getattr(torch, dtype or META["dtypes"][0])), CAP


def reference(x: torch.Tensor, cap: float) -> torch.Tensor:
    capped = cap * torch.tanh(x.float() / cap)
    return torch.softmax(capped, dim=-1).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": 2 * s["M"] * s["N"] * item, "flops": 10 * s["M"] * s["N"]}
