"""Fused LM-head cross-entropy forward + backward over a large vocabulary (Liger-Kernel
LigerCrossEntropyLoss, reduction='none', ignore_index=-100): per-token loss lse(x) - x[y] in fp32 and the
logits gradient softmax(x) - onehot(y) in the logits dtype (zero loss and gradient on ignored tokens)."""
import torch

META = {
    "name": "cross_entropy_fwd_bwd",
    "level": 2,
    "category": "loss",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 4e-3, "rtol": 1e-2}},
    "sizes": {
        "small": {"T": 8, "V": 1000},
        "ragged": {"T": 37, "V": 3001},
        "large": {"T": 4096, "V": 152064},
    },
    "baseline_notes": "40 programs (one per vector core) striding over the tokens; per token an online max / "
                      "sum-exp pass over 8,192-wide vocab blocks loaded in bf16 and upcast in UB, then a second "
                      "pass writing softmax in bf16 and a final store of the target's p - 1.",
    "deterministic": True,
}

IGNORE_INDEX = -100


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """logits [T, V] in dtype (normals x 2) and int64 targets [T], about one in eight set to -100."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    logits = (2.0 * torch.randn(s["T"], s["V"], generator=g)).to(dt)
    target = torch.randint(0, s["V"], (s["T"],), generator=g)
    target[torch.rand(s["T"], generator=g) < 0.125] = IGNORE_INDEX
    target[0] = IGNORE_INDEX
    return logits.to(device), target.to(device)


def reference(logits: torch.Tensor, target: torch.Tensor) -> tuple:
    x = logits.float()
    loss = torch.nn.functional.cross_entropy(x, target, reduction="none", ignore_index=IGNORE_INDEX)
    keep = target != IGNORE_INDEX
    grad = torch.softmax(x, dim=-1)
    grad[keep, target[keep]] -= 1.0
    grad[~keep] = 0.0
    return loss.float(), grad.to(logits.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": 2 * s["T"] * s["V"] * item + 12 * s["T"], "flops": 6 * s["T"] * s["V"]}
