"""FlagGems nll_loss (F.nll_loss(logp, target, weight, ignore_index=-100, reduction="mean"))."""
import torch

META = {
    "name": "nll_loss_mean",
    "level": 1,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-3}},
    "sizes": {
        "small": {"T": 3000, "C": 10},
        "ragged": {"T": 100003, "C": 37},
        "large": {"T": 1048576, "C": 64},
    },
    "baseline_notes": "One program per 1024 targets stores its weighted loss and weight sums; one program reduces "
                      "the partials and divides.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """log-probabilities [T, C], int64 targets with about 10% ignore_index (-100), class weights [C]."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    logp = torch.log_softmax(torch.randn(s["T"], s["C"], generator=g), dim=-1).to(dt)
    target = torch.randint(0, s["C"], (s["T"],), generator=g)
    target[torch.rand(s["T"], generator=g) < 0.1] = -100
    weight = 0.5 + torch.rand(s["C"], generator=g)
    return logp.to(device), target.to(device), weight.to(dt).to(device)


def reference(logp: torch.Tensor, target: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    keep = target != -100
    t = target.clamp(min=0)
    w = weight.double()[t] * keep
    picked = logp.double().gather(1, t[:, None])[:, 0]
    return (-(w * picked).sum() / w.sum()).to(logp.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": s["T"] * (8 + 32 + 4), "flops": 3 * s["T"]}
