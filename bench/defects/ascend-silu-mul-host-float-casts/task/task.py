"""SiLU-and-mul of a fused gate/up projection (vLLM SiluAndMul): out = silu(x[:, :I]) * x[:, I:], fp32 math, result in x's dtype."""
import torch

META = {
    "name": "silu_and_mul",
    "level": 1,
    "category": "activation",
    "dtypes": ["bfloat16", "float16"],
    "tolerance": {"bfloat16": {"atol": 2e-2, "rtol": 2e-2}, "float16": {"atol": 2e-3, "rtol": 2e-3}},
    "sizes": {
        "small": {"T": 6, "I": 100},
        "ragged": {"T": 1001, "I": 1000},
        "large": {"T": 8192, "I": 18944},
    },
    "baseline_notes": "One program per vector core (48 on an A2) looping over rows and 4096-column chunks: gate and up "
                      "loaded in their dtype, SiLU and product in fp32 in UB, stored in the input dtype.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [T, 2 I], the gate_up_proj output of a Qwen2.5 MLP (intermediate 18944 at large)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    return ((2.0 * torch.randn(s["T"], 2 * s["I"], generator=g)).to(getattr(torch, dtype or META["dtypes"][0])).to(device),)


def reference(x: torch.Tensor) -> torch.Tensor:
    i = x.shape[-1] // 2
    xf = x.float()
    return (torch.nn.functional.silu(xf[:, :i]) * xf[:, i:]).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 3 * s["T"] * s["I"] * getattr(torch, dtype or META["dtypes"][0]).itemsize, "flops": 5 * s["T"] * s["I"]}
