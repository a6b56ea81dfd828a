"""ST-MoE router z-loss: coeff * mean over tokens of logsumexp(router_logits[t, :])^2, on the fp32
router logits [T, E] of a 64-expert MoE layer. Output: the scalar loss (fp32, 0-dim)."""
import torch

META = {
    "name": "router_z_loss",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-4}},
    "sizes": {
        "small": {"T": 300, "E": 64},
        "ragged": {"T": 3001, "E": 60},
        "large": {"T": 131072, "E": 64},
    },
    "baseline_notes": "Stage 1: programs of 64 token rows x 64 experts, row max and log-sum-exp along the "
                      "contiguous expert axis, one partial sum of lse^2 per program; stage 2: one program sums "
                      "the partials and scales by coeff / T.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """router_logits [T, E] (gate output, scale ~2) and z_loss_coeff 1e-3."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    logits = 2.0 * torch.randn(s["T"], s["E"], generator=g)
    return logits.to(dt).to(device), 1e-3


def reference(router_logits: torch.Tensor, coeff: float) -> torch.Tensor:
    z = torch.logsumexp(router_logits.double(), dim=-1)
    return (coeff * (z * z).mean()).to(router_logits.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 4 * s["T"] * s["E"], "flops": 4 * s["T"] * s["E"]}
