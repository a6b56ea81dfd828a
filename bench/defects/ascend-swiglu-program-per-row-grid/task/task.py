"""SwiGLU forward on the packed gate/up projection: out = silu(x[:, :I]) * x[:, I:] (x.chunk(2, dim=-1))."""
import torch

META = {
    "name": "swiglu_fwd",
    "level": 1,
    "category": "activation",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 2e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"M": 100, "I": 96},
        "ragged": {"M": 301, "I": 1000},
        "large": {"M": 16384, "I": 14336},
    },
    "baseline_notes": "min(48, M) programs (one per vector core of an Atlas A2), each looping over rows pid, pid + 48, "
                      "... and over 4096-column chunks of the row; gate and up upcast to fp32, product cast back.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [M, 2 * I]: the fused gate_up projection's output (gate half first)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    return (torch.randn(s["M"], 2 * s["I"], generator=g) * 2.0).to(dt).to(device),


def reference(x: torch.Tensor) -> torch.Tensor:
    gate, up = x.float().chunk(2, dim=-1)
    return (torch.nn.functional.silu(gate) * up).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["M"] * s["I"]
    return {"bytes": 2 * 3 * n, "flops": 5 * n}
