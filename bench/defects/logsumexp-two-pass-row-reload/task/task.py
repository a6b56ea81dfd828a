"""z-loss statistics of an LM head: per token, lse = logsumexp(logits) over the vocabulary and the
z-loss term z_loss_weight * lse^2, in float32 from bf16 logits."""
import torch

Z_LOSS_WEIGHT = 1e-4

META = {
    "name": "logits_logsumexp_zloss",
    "level": 1,
    "category": "reduction",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"T": 6, "V": 5000},
        "ragged": {"T": 33, "V": 12289},
        "large": {"T": 8192, "V": 128256},
    },
    "baseline_notes": "One program per token; a single loop over 4096-wide chunks carries a per-lane running max "
                      "and a rescaled running sum of exp (online log-sum-exp), combined across lanes at the end; "
                      "8 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """logits [T, V] (lm_head output of a training micro-batch, 4 x 2048 tokens at the large size)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    logits = 3.0 * torch.randn(s["T"], s["V"], generator=g) + 4.0 * torch.randn(s["T"], 1, generator=g)
    return (logits.to(dt).to(device),)


def reference(logits: torch.Tensor) -> tuple:
    lse = torch.logsumexp(logits.double(), dim=-1)
    return lse.float(), (Z_LOSS_WEIGHT * lse * lse).float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["T"] * s["V"]
    return {"bytes": n * getattr(torch, dtype or META["dtypes"][0]).itemsize + 8 * s["T"], "flops": 4 * n}
