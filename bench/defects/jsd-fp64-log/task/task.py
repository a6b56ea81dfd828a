"""Generalized Jensen-Shannon divergence per row (beta = 0.5) between two bf16 log-probability rows [M, V] (Liger-Kernel jsd)."""
import torch

META = {
    "name": "jsd_rows",
    "level": 2,
    "category": "loss",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 1e-4, "rtol": 1e-3}},
    "sizes": {
        "small": {"M": 16, "V": 1000},
        "ragged": {"M": 333, "V": 32001},
        "large": {"M": 4096, "V": 32000},
    },
    "baseline_notes": "One program per row streaming V in 4096-wide chunks, exp/log in fp32 with an fp32 "
                      "accumulator, one fp32 loss per row; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x = student log-probs, y = teacher log-probs, both log_softmax of normals, stored bf16 [M, V]."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    x = torch.log_softmax(torch.randn(s["M"], s["V"], generator=g), dim=-1)
    y = torch.log_softmax(2 * torch.randn(s["M"], s["V"], generator=g), dim=-1)
    return x.to(device=device, dtype=torch.bfloat16), y.to(device=device, dtype=torch.bfloat16)


def reference(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    q, p = x.double().exp(), y.double().exp()
    m = 0.5 * (p + q)
    return (0.5 * (p * (p.log() - m.log())).sum(-1) + 0.5 * (q * (q.log() - m.log())).sum(-1)).float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 4 * s["M"] * s["V"] + 4 * s["M"], "flops": 12 * s["M"] * s["V"]}
