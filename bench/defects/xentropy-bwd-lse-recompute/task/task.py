"""Backward of a label-smoothed softmax cross entropy (apex.contrib.xentropy SoftmaxCrossEntropyLoss, smoothing 0.1,
padding tokens ignored): dlogits = grad_loss * (softmax(logits) - (1 - eps) * onehot(label) - eps / V), zero for padding
rows, with the forward's per-row log-sum-exp (max_log_sum_exp) kept for the backward."""
import torch

IGNORE_INDEX = -100

META = {
    "name": "xentropy_backward",
    "level": 2,
    "category": "loss",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 1e-8, "rtol": 2e-2}},
    "sizes": {
        "small": {"T": 6, "V": 5000},
        "ragged": {"T": 9, "V": 12345},
        "large": {"T": 4096, "V": 128256},
    },
    "baseline_notes": "One program per token row: the saved log-sum-exp is loaded, then one pass over 4096-wide "
                      "chunks writes grad_loss * (exp(x - lse) - eps / V - (1 - eps) [v == label]); 8 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """logits [T, V], labels [T] (about 1 in 8 is padding), lse [T] fp32 from the forward, grad_loss [T] fp32
    (1 / number of real tokens: a mean over tokens), smoothing."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    logits = (torch.randn(s["T"], s["V"], generator=g) * 2.0).to(dt)
    labels = torch.randint(0, s["V"], (s["T"],), generator=g)
    labels[torch.rand(s["T"], generator=g) < 0.125] = IGNORE_INDEX
    lse = torch.logsumexp(logits.float(), dim=-1)
    n_real = max(int((labels != IGNORE_INDEX).sum()), 1)
    grad_loss = torch.full((s["T"],), 1.0 / n_real)
    return logits.to(device), labels.to(device), lse.to(device), grad_loss.to(device), 0.1


def reference(logits, labels, lse, grad_loss, smoothing) -> torch.Tensor:
    V = logits.shape[1]
    p = torch.exp(logits.double() - lse.double()[:, None])
    onehot = torch.zeros_like(p)
    real = labels != IGNORE_INDEX
    onehot[real, labels[real]] = 1.0
    grad = (p - (1.0 - smoothing) * onehot - smoothing / V) * grad_loss.double()[:, None]
    grad[~real] = 0.0
    return grad.to(logits.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = torch.tensor([], dtype=getattr(torch, dtype or META["dtypes"][0])).element_size()
    return {"bytes": 2 * s["T"] * s["V"] * item + 16 * s["T"], "flops": 5 * s["T"] * s["V"]}
