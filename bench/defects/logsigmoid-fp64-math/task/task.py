"""flash-linear-attention GLA gate: g = F.logsigmoid(gk) / normalizer on the bf16 gate projection [B*T, H*K]."""
import torch

META = {
    "name": "gla_logsigmoid_gate",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 1e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"M": 7, "N": 300},
        "ragged": {"M": 1001, "N": 3001},
        "large": {"M": 32768, "N": 4096},
    },
    "baseline_notes": "Flat 1-D grid of 4096-element blocks, fp32 math: min(x, 0) - log(1 + exp(-|x|)), times 1/16.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    return (3.0 * torch.randn(s["M"], s["N"], generator=g)).to(dt).to(device), 16.0


def reference(gk: torch.Tensor, normalizer: float) -> torch.Tensor:
    return (torch.nn.functional.logsigmoid(gk.double()) / normalizer).to(gk.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["M"] * s["N"]
    return {"bytes": 2 * n * getattr(torch, dtype or META["dtypes"][0]).itemsize, "flops": 8 * n}
