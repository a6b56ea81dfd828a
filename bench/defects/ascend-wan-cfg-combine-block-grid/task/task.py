"""Classifier-free guidance combine of a video diffusion step: noise_pred = uncond + guide_scale * (cond - uncond)."""
import torch

META = {
    "name": "video_cfg_combine",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"C": 4, "T": 3, "H": 16, "W": 24},
        "ragged": {"C": 3, "T": 5, "H": 17, "W": 29},
        "large": {"C": 16, "T": 21, "H": 90, "W": 160},
    },
    "baseline_notes": "One program per vector core (48 on an Atlas A2), each striding over the 4,096-element blocks "
                      "of the latent with loads of cond and uncond and one store.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """noise_pred_cond and noise_pred_uncond [C, T, H, W] (the DiT's fp32 head outputs), guide_scale."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    shape = (s["C"], s["T"], s["H"], s["W"])
    uncond = torch.randn(shape, generator=g)
    cond = uncond + 0.2 * torch.randn(shape, generator=g)
    return cond.to(dt).to(device), uncond.to(dt).to(device), 5.0


def reference(cond: torch.Tensor, uncond: torch.Tensor, guide_scale: float) -> torch.Tensor:
    return (uncond.double() + guide_scale * (cond.double() - uncond.double())).to(cond.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["C"] * s["T"] * s["H"] * s["W"]
    return {"bytes": 12 * n, "flops": 3 * n}
