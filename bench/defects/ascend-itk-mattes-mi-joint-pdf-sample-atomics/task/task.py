"""Parzen-window joint PDF and mutual information of a fixed/moving sample pair (ITK Mattes MI).

The form of ITK's MattesMutualInformationImageToImageMetricv4 (ANTs `MI[fixed,moving,1,32]`, elastix
AdvancedMattesMutualInformation), for a set of N samples whose fixed values f_s and (already warped and
interpolated) moving values m_s are given, with B histogram bins and 2 padding bins at each end:
    bin_f = (f_max - f_min) / (B - 4),  term_f(s) = f_s / bin_f - (f_min / bin_f - 2)   (same for m)
    i_s   = clamp(int(term_f(s)), 2, B - 3)                   fixed: zero-order (box) Parzen window
    joint[i_s, b] += beta3(b - term_m(s))   for every bin b   moving: cubic B-spline Parzen window
(beta3 is non-zero on the four bins int(term_m) - 1 .. int(term_m) + 2 only). The joint histogram is
normalised by its sum; with the marginals p_f[i] = sum_b p[i, b] and p_m[b] = sum_i p[i, b],
    MI = -sum_{i,b} p[i, b] * (log(p[i, b] / p_m[b]) - log(p_f[i]))   over p[i, b] > 1e-16, p_m[b] > 1e-16
(ITK's sign: the metric value is the negated mutual information). Returns (joint pdf [B, B] fp32,
value [1] fp32).
"""
import torch

META = {
    "name": "mattes_mi_joint_pdf",
    "level": 2,
    "category": "histogram",
    "dtypes": ["float32"],
    # rtol 1e-2: fp32 accumulation of up to ~5e5 unit Parzen weights in one cell (7.2 M samples into ~100
    # occupied cells) rounds by up to ~4e-3 relative, whatever the order of the additions
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-2}},
    "sizes": {
        "small": {"N": 1000, "bins": 32},
        "ragged": {"N": 1237, "bins": 32},
        "large": {"N": 182 * 218 * 182, "bins": 32},
    },
    "baseline_notes": "40 programs (the 910B's vector cores) loop over tiles of 128 samples; per tile the fixed "
                      "bins become a one-hot [B, 128] tile and the moving cubic B-spline Parzen weights a dense "
                      "[128, B] tile, and the tile's joint histogram is their tl.dot on the cube unit, accumulated "
                      "in a [B, B] fp32 tile; each program stores its partial histogram, a one-program kernel sums "
                      "the partials, normalises, forms the marginals and the MI value. No atomics, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Fixed and moving samples [N] (a T1-like and a T2-like intensity of the same tissue labels), their
    min / max as Python floats (ITK computes them once per registration) and the number of bins."""
    s = META["sizes"][size]
    n, bins = s["N"], s["bins"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    # background, CSF, grey matter, white matter
    label = torch.multinomial(torch.tensor([0.35, 0.12, 0.28, 0.25]), n, replacement=True, generator=g)
    t1 = torch.tensor([5.0, 40.0, 85.0, 120.0])[label]
    t2 = torch.tensor([3.0, 180.0, 95.0, 60.0])[label]
    fixed = (t1 + 6.0 * torch.randn(n, generator=g)).clamp(min=0.0)
    moving = (t2 + 9.0 * torch.randn(n, generator=g)).clamp(min=0.0)
    fixed, moving = fixed.to(dt), moving.to(dt)
    return (fixed.to(device), moving.to(device), float(fixed.min()), float(fixed.max()),
            float(moving.min()), float(moving.max()), bins)


def _beta3(x: torch.Tensor) -> torch.Tensor:
    a = x.abs()
    inner = (4.0 - 6.0 * a * a + 3.0 * a * a * a) / 6.0
    outer = (2.0 - a).clamp(min=0.0) ** 3 / 6.0
    return torch.where(a < 1.0, inner, outer)


def reference(fixed, moving, f_min, f_max, m_min, m_max, bins):
    f, m = fixed.double(), moving.double()
    pad = 2
    f_bin = (f_max - f_min) / (bins - 2 * pad)
    m_bin = (m_max - m_min) / (bins - 2 * pad)
    f_term = f / f_bin - (f_min / f_bin - pad)
    m_term = m / m_bin - (m_min / m_bin - pad)
    fi = f_term.long().clamp(pad, bins - pad - 1)
    b = torch.arange(bins, dtype=torch.float64, device=f.device)
    w = _beta3(b[None, :] - m_term[:, None])                         # [N, B]
    joint = torch.zeros(bins, bins, dtype=torch.float64, device=f.device)
    joint.index_add_(0, fi, w)
    joint = joint / joint.sum()
    pf, pm = joint.sum(1), joint.sum(0)
    ok = (joint > 1e-16) & (pm[None, :] > 1e-16)
    ratio = torch.where(ok, joint, 1.0) / torch.where(ok, pm[None, :], 1.0)
    lpf = torch.log(torch.where(pf > 1e-16, pf, 1.0))[:, None]
    mi = torch.where(ok, joint * (torch.log(ratio) - lpf), 0.0).sum()
    return joint.to(fixed.dtype), (-mi).reshape(1).to(fixed.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 8 * s["N"] + 8 * s["bins"] ** 2, "flops": 40 * s["N"] * s["bins"]}
