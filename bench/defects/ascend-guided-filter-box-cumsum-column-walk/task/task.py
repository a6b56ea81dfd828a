"""Box filter of the Fast End-to-End Trainable Guided Filter (guided_filter_pytorch BoxFilter(r), DeepGuidedFilter,
Wu et al. CVPR 2018): the sum of every pixel's (2r+1) x (2r+1) window clipped at the image border, computed as the
original does it: a cumulative sum along H, the difference of prefix rows r apart, a cumulative sum along W and the
difference of prefix columns r apart. Input [B, C, H, W] float32 with H, W >= 2r + 1; output of the same shape."""
import torch

META = {
    "name": "guided_filter_box_sum",
    "level": 2,
    "category": "scan",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-2, "rtol": 1e-3}},
    "sizes": {
        "small": {"B": 1, "C": 2, "H": 40, "W": 72, "r": 4},
        "ragged": {"B": 2, "C": 3, "H": 131, "W": 259, "r": 8},
        "large": {"B": 4, "C": 3, "H": 1080, "W": 1920, "r": 8},
    },
    "baseline_notes": "Three kernels on a grid of one program per vector core, each looping over its tasks: a "
                      "prefix sum along H on [64, 128] tiles (tl.cumsum over axis 0 with a carried column total), "
                      "a kernel that differences prefix rows r apart and scans along W on [8, 512] tiles (also "
                      "storing each row's total), and a kernel that differences prefix columns r apart.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [B, C, H, W] (an image batch in [0, 1)) and the box radius r."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.rand(s["B"], s["C"], s["H"], s["W"], generator=g)
    return x.to(dt).to(device), s["r"]


def _clipped_window_sum(x: torch.Tensor, r: int, dim: int) -> torch.Tensor:
    n = x.shape[dim]
    zero = torch.zeros_like(x.narrow(dim, 0, 1))
    p = torch.cat([zero, x.cumsum(dim)], dim)          # p[k] = sum of the first k entries
    idx = torch.arange(n, device=x.device)
    hi = (idx + r + 1).clamp(max=n)
    lo = (idx - r).clamp(min=0)
    return p.index_select(dim, hi) - p.index_select(dim, lo)


def reference(x: torch.Tensor, r: int) -> torch.Tensor:
    v = _clipped_window_sum(x.double(), r, 2)
    return _clipped_window_sum(v, r, 3).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["C"] * s["H"] * s["W"]
    return {"bytes": 2 * 4 * n, "flops": 4 * n}
