"""Initial per-pixel background from the first frames of a rotation sweep (XDS INIT, BKGINIT.cbf).

frames is the int32 stack [F, H, W] of the BACKGROUND_RANGE images (photon counts; Pilatus module
gaps read -1, so values < 0 are untrusted). For every pixel p, over its F values v_f >= 0:
    pass 1: n1 = count, mean1 = sum v / max(n1, 1)
    pass 2: drop the outliers (Bragg spots passing through, zingers) v_f > mean1 + NSIG * sqrt(max(mean1, 1)),
            bkg = mean of the kept values, n_used = their number (bkg = 0 where none is kept).
Returns (bkg fp32 [H, W], n_used int32 [H, W]).
"""
import torch

META = {
    "name": "bkginit_pixel_background",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        # frames, H x W pixels (slow, fast), module size and gap widths of the tiled detector
        "small": {"F": 12, "H": 20, "W": 30, "mod_h": 8, "mod_w": 12, "gap_h": 2, "gap_w": 3},
        "ragged": {"F": 9, "H": 23, "W": 37, "mod_h": 9, "mod_w": 10, "gap_h": 2, "gap_w": 1},
        # Pilatus 6M: 12 x 5 modules of 195 x 487 pixels, 17- and 7-pixel gaps; 5 deg at 0.1 deg per image
        "large": {"F": 50, "H": 2527, "W": 2463, "mod_h": 195, "mod_w": 487, "gap_h": 17, "gap_w": 7},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over blocks of 128 pixels; each block is one "
                      "[next_power_of_2(F), 128] tile (frames x contiguous pixels), both passes reduce along "
                      "the frame axis (axis 0) in UB, two stores per block. NSIG = 3, no autotune.",
    "deterministic": True,
}
NSIG = 3.0


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """frames int32 [F, H, W] and the outlier cut NSIG (float)."""
    s = META["sizes"][size]
    f, h, w = s["F"], s["H"], s["W"]
    g = torch.Generator().manual_seed(seed)
    yy = torch.arange(h, dtype=torch.float32)[:, None]
    xx = torch.arange(w, dtype=torch.float32)[None, :]
    r = torch.sqrt((yy - 0.5 * h) ** 2 + (xx - 0.45 * w) ** 2) / max(h, w)
    rate = 0.5 + 3.0 * torch.exp(-((r - 0.3) / 0.1) ** 2) + 6.0 * torch.exp(-r / 0.04)
    out = torch.empty((f, h, w), dtype=torch.int32)
    gaps = ((torch.arange(h) % (s["mod_h"] + s["gap_h"]) >= s["mod_h"])[:, None]
            | (torch.arange(w) % (s["mod_w"] + s["gap_w"]) >= s["mod_w"])[None, :])
    for i in range(f):
        frame = rate * (1.0 + 0.02 * i / max(f - 1, 1))
        hits = torch.rand(h, w, generator=g) < 0.004  # Bragg spot pixels and zingers on this frame
        frame = frame + hits * (20.0 + 400.0 * torch.rand(h, w, generator=g))
        img = torch.poisson(frame, generator=g).to(torch.int32)
        img[gaps] = -1
        out[i] = img
    return out.to(device), NSIG


def reference(frames: torch.Tensor, nsig: float) -> tuple:
    v = frames.double()
    ok = v >= 0
    n1 = ok.sum(0).double()
    mean1 = torch.where(ok, v, 0.0).sum(0) / n1.clamp(min=1.0)
    cut = mean1 + nsig * torch.sqrt(mean1.clamp(min=1.0))
    keep = ok & (v <= cut)
    n2 = keep.sum(0)
    s2 = torch.where(keep, v, 0.0).sum(0)
    bkg = torch.where(n2 > 0, s2 / n2.clamp(min=1).double(), 0.0)
    return bkg.float(), n2.to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["F"] * s["H"] * s["W"]
    return {"bytes": 4 * n + 8 * s["H"] * s["W"], "flops": 8 * n}
