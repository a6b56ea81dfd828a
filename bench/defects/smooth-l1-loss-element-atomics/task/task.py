"""Per-sample smooth L1 loss, F.smooth_l1_loss(x, y, beta=1.0, reduction='none').mean(1) (FlagGems smooth_l1_loss), for box regression."""
import torch

META = {
    "name": "smooth_l1_loss_per_sample",
    "level": 1,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-3}},
    "sizes": {
        "small": {"B": 4, "N": 3000},
        "ragged": {"B": 37, "N": 10007},
        "large": {"B": 4096, "N": 4096},
    },
    "baseline_notes": "One program per sample: loop over 2048-column blocks accumulating the loss in registers, "
                      "tl.sum, one store of sum / N; 4 warps; deterministic.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Predictions and targets [B, N]: normals, the targets a noisy copy, so both branches of the loss occur."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.randn(s["B"], s["N"], generator=g)
    y = x + 1.5 * torch.randn(s["B"], s["N"], generator=g)
    return x.to(dt).to(device), y.to(dt).to(device)


def reference(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    loss = torch.nn.functional.smooth_l1_loss(x.double(), y.double(), beta=1.0, reduction="none")
    return loss.mean(1).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["N"]
    return {"bytes": 2 * n * getattr(torch, dtype or META["dtypes"][0]).itemsize, "flops": 5 * n}
