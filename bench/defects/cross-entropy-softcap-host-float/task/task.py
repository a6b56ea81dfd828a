"""Per-token cross-entropy with Gemma-2 logit softcapping (z = cap * tanh(logits / cap)), bf16 logits [M, V], ignore_index -100 (unsloth fast_cross_entropy_loss)."""
import torch

CAP = 30.0

META = {
    "name": "softcap_cross_entropy",
    "level": 2,
    "category": "loss",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 2e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"M": 16, "V": 1000},
        "ragged": {"M": 333, "V": 32001},
        "large": {"M": 2048, "V": 128256},
    },
    "baseline_notes": "One program per row, online logsumexp over 4096-wide chunks of the bf16 row upcast "
                      "in registers, softcap as cap * (2 * sigmoid(2x / cap) - 1), one fp32 loss per row; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Logits [M, V] bf16 (normals scaled by 8, so the cap bites) and labels [M] int64, about 10% -100."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    logits = (8 * torch.randn(s["M"], s["V"], generator=g)).to(torch.bfloat16)
    labels = torch.randint(0, s["V"], (s["M"],), generator=g)
    labels[torch.rand(s["M"], generator=g) < 0.1] = -100
    return logits.to(device), labels.to(device)


def reference(logits: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    z = CAP * torch.tanh(logits.double() / CAP)
    lse = torch.logsumexp(z, dim=-1)
    picked = z.gather(1, labels.clamp(min=0)[:, None])[:, 0]
    return torch.where(labels == -100, 0.0, lse - picked).float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 2 * s["M"] * s["V"] + 12 * s["M"], "flops": 8 * s["M"] * s["V"]}
