"""Cross-entropy forward and its logit gradient in one op (Liger-Kernel style): loss per token and dlogits = softmax - onehot."""
import torch

META = {
    "name": "cross_entropy_fwd_bwd",
    "level": 2,
    "category": "loss",
    "dtypes": ["float16", "bfloat16"],
    "tolerance": {"float16": {"atol": 1e-2, "rtol": 1e-2},
                  "bfloat16": {"atol": 2e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"M": 16, "V": 1000},
        "ragged": {"M": 333, "V": 32001},
        "large": {"M": 4096, "V": 32000},
    },
    "baseline_notes": "One program per token: an online log-sum-exp pass over 4096-wide chunks, the loss "
                      "store, then a second pass over the (L2-resident) row writing softmax - onehot; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """logits [M, V] (standard normals), target [M] int64."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    logits = torch.randn(s["M"], s["V"], generator=g)
    target = torch.randint(0, s["V"], (s["M"],), generator=g)
    return logits.to(device=device, dtype=dt), target.to(device)


def reference(logits: torch.Tensor, target: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    x = logits.float()
    loss = torch.nn.functional.cross_entropy(x, target, reduction="none")
    grad = torch.softmax(x, dim=-1)
    grad[torch.arange(x.shape[0], device=x.device), target] -= 1.0
    return loss, grad.to(logits.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": 2 * s["M"] * s["V"] * item + 12 * s["M"], "flops": 6 * s["M"] * s["V"]}
