"""Total variation distance per row between two distributions, 0.5 * sum_v |p - q| (Liger-Kernel tvd, distillation), p and q [B, V] in bf16."""
import torch

META = {
    "name": "tvd_rows",
    "level": 2,
    "category": "loss",
    "dtypes": ["bfloat16", "float16"],
    "tolerance": {"bfloat16": {"atol": 1e-4, "rtol": 1e-3}, "float16": {"atol": 1e-4, "rtol": 1e-3}},
    "sizes": {
        "small": {"B": 8, "V": 1000},
        "ragged": {"B": 301, "V": 32_001},
        "large": {"B": 4096, "V": 32_000},
    },
    "baseline_notes": "One program per row looping over V in 4096-column chunks: loads p and q in their dtype, "
                      "|p - q| accumulated in fp32, one fp32 store; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """p and q [B, V]: softmaxes of random logits, in the dtype."""
    s = META["sizes"][size]
    dt = getattr(torch, dtype or META["dtypes"][0])
    g = torch.Generator().manual_seed(seed)
    p = torch.softmax(2 * torch.randn(s["B"], s["V"], generator=g), -1).to(dt)
    q = torch.softmax(2 * torch.randn(s["B"], s["V"], generator=g), -1).to(dt)
    return p.to(device), q.to(device)


def reference(p: torch.Tensor, q: torch.Tensor) -> torch.Tensor:
    return (0.5 * (p.double() - q.double()).abs().sum(-1)).float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["V"]
    return {"bytes": 2 * n * getattr(torch, dtype or META["dtypes"][0]).itemsize + 4 * s["B"], "flops": 3 * n}
