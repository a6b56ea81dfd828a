"""RetinaNet sigmoid focal loss per anchor and class (torchvision.ops.sigmoid_focal_loss, reduction='none')."""
import torch

META = {
    "name": "sigmoid_focal_loss",
    "level": 2,
    "category": "loss",
    "dtypes": ["float32", "float16"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5},
                  "float16": {"atol": 1e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"M": 64, "C": 80},
        "ragged": {"M": 1000, "C": 91},
        "large": {"M": 262144, "C": 80},
    },
    "baseline_notes": "Flat elementwise kernel, BLOCK=1024: sigmoid, stable BCE-with-logits "
                      "(max(x,0) - x*t + log(1 + exp(-|x|))), the (1-p_t)^2 modulation and alpha "
                      "weighting, all in fp32; no autotune.",
    "deterministic": True,
}
ALPHA, GAMMA = 0.25, 2.0


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Class logits [M, C] and 0/1 targets [M, C] in the same dtype (about 2% positives)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    logits = 2 * torch.randn(s["M"], s["C"], generator=g) - 2
    targets = (torch.rand(s["M"], s["C"], generator=g) < 0.02).float()
    dt = getattr(torch, dtype or META["dtypes"][0])
    return logits.to(device=device, dtype=dt), targets.to(device=device, dtype=dt)


def reference(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    x, t = logits.float(), targets.float()
    p = torch.sigmoid(x)
    ce = torch.nn.functional.binary_cross_entropy_with_logits(x, t, reduction="none")
    p_t = p * t + (1 - p) * (1 - t)
    loss = ce * (1 - p_t) ** GAMMA
    return (loss * (ALPHA * t + (1 - ALPHA) * (1 - t))).to(logits.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": 3 * s["M"] * s["C"] * item, "flops": 20 * s["M"] * s["C"]}
