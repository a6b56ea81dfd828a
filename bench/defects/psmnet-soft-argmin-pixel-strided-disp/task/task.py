"""PSMNet / GwcNet disparity regression (soft argmin): pred[b, h, w] = sum_d d * softmax_d(cost[b, :, h, w])."""
import torch

META = {
    "name": "soft_argmin_disparity",
    "level": 1,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 1, "D": 12, "H": 5, "W": 7},
        "ragged": {"B": 2, "D": 19, "H": 6, "W": 11},
        "large": {"B": 1, "D": 192, "H": 544, "W": 960},
    },
    "baseline_notes": "grid (B, H*W / 128): each program owns 128 contiguous pixels and walks the disparity axis "
                      "in chunks of 16 rows of a [16, 128] tile (coalesced along W), with an online softmax "
                      "(running max, sum, and disparity-weighted sum); 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """The upsampled full-resolution cost volume [B, D, H, W] (logits over disparity)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    cost = torch.randn((s["B"], s["D"], s["H"], s["W"]), generator=g) * 3.0
    # a peaked match at a per-pixel true disparity, as a trained network produces
    true_d = torch.randint(0, s["D"], (s["B"], 1, s["H"], s["W"]), generator=g)
    disp = torch.arange(s["D"]).view(1, -1, 1, 1)
    cost = cost - 0.05 * (disp - true_d).abs().float() ** 2
    return (cost.to(dt).to(device),)


def reference(cost: torch.Tensor) -> torch.Tensor:
    prob = torch.softmax(cost.double(), dim=1)
    disp = torch.arange(cost.shape[1], dtype=torch.float64, device=cost.device).view(1, -1, 1, 1)
    return (prob * disp).sum(dim=1).to(cost.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["D"] * s["H"] * s["W"]
    return {"bytes": 4 * n + 4 * s["B"] * s["H"] * s["W"], "flops": 5 * n}
