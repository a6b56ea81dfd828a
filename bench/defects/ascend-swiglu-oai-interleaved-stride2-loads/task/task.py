"""GPT-OSS clamped SwiGLU ("swigluoai") on the fused gate_up projection output of the MoE experts: the
gate and up halves are interleaved column by column (gate = x[:, 0::2], up = x[:, 1::2]);
gate = min(gate, limit); up = clamp(up, -limit, limit); out = (up + 1) * gate * sigmoid(alpha * gate).
Output [N, I] in the input dtype."""
import torch

ALPHA = 1.702
LIMIT = 7.0

META = {
    "name": "swiglu_oai_interleaved",
    "level": 1,
    "category": "activation",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 2e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"N": 37, "I": 160},
        "ragged": {"N": 301, "I": 1000},
        "large": {"N": 32768, "I": 2880},
    },
    "baseline_notes": "Programs = AI vector cores, rows strided over programs; each column block is one contiguous "
                      "load of 2 * BLOCK_I interleaved values, split on chip into gate and up.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [N, 2 * I] (routed token rows x interleaved gate/up), values spread past the clamp limit."""
    s = META["sizes"][size]
    dt = getattr(torch, dtype or META["dtypes"][0])
    g = torch.Generator().manual_seed(seed)
    x = 4.0 * torch.randn(s["N"], 2 * s["I"], generator=g)
    return (x.to(dt).to(device),)


def reference(x: torch.Tensor) -> torch.Tensor:
    xd = x.double()
    gate = xd[:, 0::2].clamp(max=LIMIT)
    up = xd[:, 1::2].clamp(min=-LIMIT, max=LIMIT)
    return ((up + 1.0) * gate * torch.sigmoid(ALPHA * gate)).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 2 * 3 * s["N"] * s["I"], "flops": 8 * s["N"] * s["I"]}
