"""Per-sequence mean of token losses over the tokens whose target is not ignore_index (-100), as
the loss-mask averaging after a per-token cross-entropy in Megatron-LM / Liger-Kernel (targets
are int64, as torch keeps labels). A local task for the int64-compare defect case."""
import torch

META = {
    "name": "masked_token_mean",
    "level": 2,
    "category": "loss",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"B": 4, "T": 300},
        "ragged": {"B": 37, "T": 5001},
        "large": {"B": 48, "T": 262144},
    },
    "ignore_index": -100,
    "baseline_notes": "One program per sequence, 4096-token chunks: int64 targets narrowed to "
                      "int32 before the != ignore_index compare, masked sum and count in fp32, "
                      "one division; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """losses [B, T] (positive) and int64 targets [B, T] with about 30% set to ignore_index."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    loss = torch.rand(s["B"], s["T"], generator=g) * 10
    target = torch.randint(0, 32000, (s["B"], s["T"]), generator=g)
    target[torch.rand(s["B"], s["T"], generator=g) < 0.3] = META["ignore_index"]
    return loss.to(device=device, dtype=getattr(torch, dtype or META["dtypes"][0])), target.to(device)


def reference(loss: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    valid = target != META["ignore_index"]
    total = (loss.double() * valid).sum(-1)
    return (total / valid.sum(-1).clamp(min=1)).to(loss.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 12 * s["B"] * s["T"] + 4 * s["B"], "flops": 2 * s["B"] * s["T"]}
