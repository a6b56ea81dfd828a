"""Single-level 2-D discrete wavelet transform of an image batch (pytorch_wavelets DWTForward(J=1, wave='db4',
mode='zero'), equivalently pywt.dwt2(x, 'db4', mode='zero', axes=(-2, -1))).

The separable analysis filter bank runs along the width and then along the height. Along an axis of length n
with the decomposition filters dec_lo / dec_hi of length L (zero extension outside [0, n)):
    approx[o] = sum_k dec_lo[k] * v[2 o + 1 - k],   detail[o] = sum_k dec_hi[k] * v[2 o + 1 - k],
    o = 0 .. m - 1,  m = floor((n + L - 1) / 2)            (pywt.dwt_coeff_len(n, L, 'zero'))
Returns (cA [N, C, Ho, Wo], details [N, C, 3, Ho, Wo]) with details[:, :, 0] = cH (approximation along the
width, detail along the height), [:, :, 1] = cV (detail along the width, approximation along the height) and
[:, :, 2] = cD (detail along both), pywt's (cA, (cH, cV, cD)) order; pytorch_wavelets stacks yh the same way.
"""
import torch
import torch.nn.functional as F

META = {
    "name": "dwt2_db4_zero",
    "level": 2,
    "category": "signal",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 1, "C": 2, "H": 20, "W": 24},
        "ragged": {"N": 2, "C": 1, "H": 37, "W": 29},
        "large": {"N": 16, "C": 3, "H": 1024, "W": 1024},
    },
    "baseline_notes": "Two launches, as pytorch_wavelets' afb2d: the width pass reads [8 rows x 128 outputs] tiles "
                      "(taps at 2o+1-k, zero-masked) and writes the low/high halves [N*C, H, Wo]; the height pass "
                      "reads [128 output rows x 16 columns] tiles of both halves (columns contiguous) and writes "
                      "cA and the three detail bands. fp32 accumulation, 4 warps, no autotune.",
    "deterministic": True,
}

# pywt.Wavelet('db4').dec_lo; dec_hi[k] = (-1)^(k+1) dec_lo[L-1-k] (quadrature mirror filter)
DB4_DEC_LO = [-0.010597401784997278, 0.032883011666982945, 0.030841381835986965, -0.18703481171888114,
              -0.02798376941698385, 0.6308807679295904, 0.7148465705525415, 0.23037781330885523]


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Images x [N, C, H, W] (smooth structure plus texture), dec_lo [8], dec_hi [8]."""
    s = META["sizes"][size]
    n, c, h, w = s["N"], s["C"], s["H"], s["W"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    yy = torch.linspace(0.0, 1.0, h)[:, None]
    xx = torch.linspace(0.0, 1.0, w)[None, :]
    phase = torch.rand(n, c, 1, 1, generator=g) * 6.283
    x = 0.5 + 0.3 * torch.sin(9.0 * xx + 5.0 * yy + phase) + 0.1 * torch.randn(n, c, h, w, generator=g)
    lo = torch.tensor(DB4_DEC_LO, dtype=torch.float64)
    L = lo.numel()
    hi = torch.tensor([(-1) ** (k + 1) * lo[L - 1 - k].item() for k in range(L)], dtype=torch.float64)
    return x.to(device=device, dtype=dt), lo.to(device=device, dtype=dt), hi.to(device=device, dtype=dt)


def _analysis_last_axis(v: torch.Tensor, lo: torch.Tensor, hi: torch.Tensor) -> tuple:
    n = v.shape[-1]
    L = lo.numel()
    m = (n + L - 1) // 2
    vp = F.pad(v.reshape(-1, 1, n), (L - 2, 2 * m - n))
    weight = torch.stack([lo.flip(0), hi.flip(0)])[:, None, :]
    y = F.conv1d(vp, weight, stride=2)
    shape = (*v.shape[:-1], m)
    return y[:, 0].reshape(shape), y[:, 1].reshape(shape)


def reference(x: torch.Tensor, dec_lo: torch.Tensor, dec_hi: torch.Tensor) -> tuple:
    lo, hi = dec_lo.double(), dec_hi.double()
    lo_w, hi_w = _analysis_last_axis(x.double(), lo, hi)
    aa, da = (t.transpose(-1, -2) for t in _analysis_last_axis(lo_w.transpose(-1, -2), lo, hi))
    ad, dd = (t.transpose(-1, -2) for t in _analysis_last_axis(hi_w.transpose(-1, -2), lo, hi))
    return aa.to(x.dtype).contiguous(), torch.stack([da, ad, dd], dim=2).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    p, h, w = s["N"] * s["C"], s["H"], s["W"]
    ho, wo = (h + 7) // 2, (w + 7) // 2
    moved = 4 * (p * h * w + 2 * p * h * wo) + 4 * (2 * p * h * wo + 4 * p * ho * wo)
    return {"bytes": moved, "flops": 2 * 2 * 8 * (p * h * wo + 2 * p * ho * wo)}
