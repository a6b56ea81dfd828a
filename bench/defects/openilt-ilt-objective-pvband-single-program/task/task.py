"""Per-iteration objective of OpenILT's pixel ILT (pyilt/simpleilt.py SimpleILT.solve with pylitho LithoSim).

From the three process-corner aerial images of one 2048x2048 clip (nominal: focus kernels at dose 1.00;
max: focus at dose 1.02; min: defocus at dose 0.98) the sigmoid resist model gives the printed images
    printed_c = sigmoid(steepness * (aerial_c - density))      (PrintSteepness 50, TargetDensity 0.225)
and the optimiser's scalar terms are
    l2      = sum (printed_nom - target)^2
    pvbl2   = sum (printed_max - target)^2 + sum (printed_min - target)^2
    pvbloss = sum (printed_max - printed_min)^2
    pvband  = #pixels whose binary prints differ between the max and min corners, where a pixel prints
              when printed_c >= 0.5, i.e. aerial_c >= density (the evaluation's PV band).
Returns fp32 [4] = (l2, pvbl2, pvbloss, pvband).
"""
import torch

META = {
    "name": "ilt_objective_pvband",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-2, "rtol": 1e-4}},
    "sizes": {
        "small": {"H": 64, "W": 64},
        "ragged": {"H": 75, "W": 91},
        "large": {"H": 2048, "W": 2048},
    },
    "baseline_notes": "Grid-stride kernel over the flattened image with 2048-pixel tiles, up to 1024 programs "
                      "(8 warps), each keeping the four partial sums in BLOCK-wide fp32 registers and writing "
                      "one row of a [programs, 4] partials buffer; a one-program kernel adds the rows in a fixed "
                      "order (deterministic, no atomics). No autotune.",
    "deterministic": True,
}
DENSITY = 0.225     # TargetDensity: aerial intensity at which the resist prints
STEEPNESS = 50.0    # PrintSteepness of the sigmoid resist model


def _blur(img: torch.Tensor, sigma: float) -> torch.Tensor:
    """Gaussian low-pass (periodic, via FFT): a stand-in for the band-limited optical image."""
    H, W = img.shape
    fy = torch.fft.fftfreq(H).double()[:, None]
    fx = torch.fft.rfftfreq(W).double()[None, :]
    g = torch.exp(-2.0 * (torch.pi * sigma) ** 2 * (fx * fx + fy * fy))
    return torch.fft.irfft2(torch.fft.rfft2(img.double()) * g, s=(H, W))


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """aerial_nom, aerial_max, aerial_min, target: fp32 [H, W] each, plus density and steepness (floats)."""
    s = META["sizes"][size]
    H, W = s["H"], s["W"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    # Manhattan metal-layer target: wires on horizontal tracks plus a few vertical jogs.
    target = torch.zeros(H, W, dtype=torch.float64)
    scale = max(H / 2048.0, 0.125)      # feature sizes shrink with the clip, but not below ~8 px
    n_rect = max(3, int(40 * H * W / 2048 ** 2))
    for _ in range(n_rect):
        vertical = bool(torch.rand((), generator=g) < 0.3)
        w = max(2, int((60 + 40 * torch.rand((), generator=g).item()) * scale))
        ln = max(4, int((200 + 700 * torch.rand((), generator=g).item()) * scale))
        h_, w_ = (ln, w) if vertical else (w, ln)
        r0 = int(torch.randint(0, max(1, H - h_), (), generator=g))
        c0 = int(torch.randint(0, max(1, W - w_), (), generator=g))
        target[r0:r0 + h_, c0:c0 + w_] = 1.0
    sigma = max(1.0, 18.0 * scale)
    nom = 0.92 * _blur(target, sigma) + 0.01 * torch.randn(H, W, generator=g, dtype=torch.float64)
    mx = nom * 1.02 ** 2
    mn = 0.92 * 0.98 ** 2 * _blur(target, 1.25 * sigma) + 0.01 * torch.randn(H, W, generator=g, dtype=torch.float64)
    put = lambda t: t.to(dtype=dt).to(device).contiguous()
    return put(nom), put(mx), put(mn), put(target), DENSITY, STEEPNESS


def reference(aerial_nom, aerial_max, aerial_min, target, density: float, steepness: float) -> torch.Tensor:
    a_n, a_x, a_m, t = (x.double() for x in (aerial_nom, aerial_max, aerial_min, target))
    p_n = torch.sigmoid(steepness * (a_n - density))
    p_x = torch.sigmoid(steepness * (a_x - density))
    p_m = torch.sigmoid(steepness * (a_m - density))
    l2 = ((p_n - t) ** 2).sum()
    pvbl2 = ((p_x - t) ** 2).sum() + ((p_m - t) ** 2).sum()
    pvbloss = ((p_x - p_m) ** 2).sum()
    pvband = ((aerial_max >= density) != (aerial_min >= density)).sum().double()
    return torch.stack([l2, pvbl2, pvbloss, pvband]).to(aerial_nom.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["H"] * s["W"]
    return {"bytes": 16 * n, "flops": 30 * n}
