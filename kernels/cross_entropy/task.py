"""Per-token cross-entropy of LM logits against int64 targets (F.cross_entropy, reduction='none')."""
import torch

META = {
    "name": "cross_entropy",
    "level": 1,
    "category": "loss",
    "dtypes": ["float16", "bfloat16", "float32"],
    "tolerance": {"float16": {"atol": 1e-3, "rtol": 1e-3},
                  "bfloat16": {"atol": 1e-3, "rtol": 1e-3},
                  "float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"M": 16, "V": 128},
        "ragged": {"M": 1000, "V": 1531},
        "large": {"M": 4096, "V": 32000},
    },
    "baseline_notes": "One program per token, BLOCK = next_power_of_2(V), the whole logit row in "
                      "registers, log-sum-exp in fp32 minus the target logit; fp32 loss out; no "
                      "autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Logits [M, V] (normals scaled by 3) and int64 targets [M]."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    logits = 3 * torch.randn(s["M"], s["V"], generator=g)
    target = torch.randint(0, s["V"], (s["M"],), generator=g)
    dt = getattr(torch, dtype or META["dtypes"][0])
    return logits.to(device=device, dtype=dt), target.to(device)


def reference(logits: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.cross_entropy(logits.float(), target, reduction="none")


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": s["M"] * s["V"] * item + 12 * s["M"], "flops": 4 * s["M"] * s["V"]}
