"""Per-particle B-factor and scale scan of RELION's CTF refinement (relion_ctf_refine --fit_bfacs, BFactorRefiner).

Each particle p has an observed half-plane FFT obs_p and its CTF-modulated reference prediction pred_p
(FFTW layout [D, D/2+1]: row i is y = i for i < D/2, else i - D; column x = 0..D/2). Pixels are binned by
ring r = floor(sqrt(x^2 + y^2) + 0.5) and used while r < D/2 + 1 (BFactorRefiner::findBKRec2D). For S
B-factors B_s = min_B + s (max_B - min_B) / (S - 1) (in A^2; B_px = B / (D angpix)^2 in pixel units) the
envelope is b_s(r) = exp(-B_px r^2 / 4) and
    num_s = sum_k w_k b_s Re(pred conj(obs)),   den_s = sum_k w_k b_s^2 |pred|^2,
    a_s   = max(num_s / den_s, min_scale)      (num_s / 1e-20 when den_s <= 1e-20),
    err_s = sum_k w_k |obs - a_s b_s pred|^2,
w the frequency weight image (0 inside kmin = 30 A and past Nyquist). Returns (err [N, S], a [N, S]), fp32;
the fitted B-factor and scale of a particle are those of its smallest err.
"""
import math

import torch

META = {
    "name": "ctf_refine_bfactor_scan",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-2, "rtol": 1e-3}},
    "sizes": {
        "small": {"N": 3, "D": 16, "S": 8},
        "ragged": {"N": 5, "D": 20, "S": 7},
        "large": {"N": 512, "D": 256, "S": 64},
    },
    "baseline_notes": "One program per particle walks the D x (D/2+1) half-plane in blocks of 32 pixels; per pixel it "
                      "forms the ring radius, w|obs|^2, w Re(pred conj obs) and w|pred|^2, then evaluates the S "
                      "envelopes exp(-B_s r^2/4) as a [next_pow2(S), 32] fp32 tile and accumulates num and den in "
                      "registers; err follows from sum w|obs|^2 - 2 a num + a^2 den after the row reductions. "
                      "4 warps, no autotune.",
    "deterministic": True,
}
ANGPIX = 1.0        # A per pixel
MIN_B = -30.0       # --bfac_min_B
MAX_B = 300.0       # --bfac_max_B
MIN_SCALE = 0.2     # --bfac_min_scale
KMIN_A = 30.0       # --kmin_bfac


def _rings(d: int, device) -> torch.Tensor:
    w = d // 2 + 1
    rows = torch.arange(d, device=device)
    y = torch.where(rows < d // 2, rows, rows - d).double()[:, None]
    x = torch.arange(w, device=device).double()[None, :]
    return torch.floor(torch.sqrt(x * x + y * y) + 0.5)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """obs, pred [N, D, D/2+1, 2], weight [D, D/2+1], angpix, min_B, max_B, min_scale, S."""
    s = META["sizes"][size]
    n, d, steps = s["N"], s["D"], s["S"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    r = _rings(d, "cpu")
    freq = r / (d * ANGPIX)
    # frequency weight: a hole inside kmin, an FSC-like fall-off, nothing past Nyquist
    weight = torch.where((freq >= 1.0 / KMIN_A) & (r <= d // 2),
                         1.0 / (1.0 + (freq / (0.3 / ANGPIX)) ** 8), torch.zeros_like(freq))
    # CTF-modulated projections: an oscillating CTF on a decaying spectrum
    ctf = -torch.sin(3.0 * math.pi * (freq * ANGPIX * 4.0) ** 2 + 0.1)
    pred = torch.randn(n, d, d // 2 + 1, 2, generator=g, dtype=torch.float64)
    pred = pred * (ctf * torch.exp(-20.0 * freq * freq))[None, :, :, None]
    b_true = 200.0 * torch.rand(n, generator=g, dtype=torch.float64)
    a_true = 0.6 + 0.8 * torch.rand(n, generator=g, dtype=torch.float64)
    env = a_true[:, None, None] * torch.exp(-b_true[:, None, None] / (d * ANGPIX) ** 2 * r * r / 4.0)
    obs = env[..., None] * pred + 0.3 * torch.randn(n, d, d // 2 + 1, 2, generator=g, dtype=torch.float64)
    return (obs.to(device=device, dtype=dt), pred.to(device=device, dtype=dt), weight.to(device=device, dtype=dt),
            ANGPIX, MIN_B, MAX_B, MIN_SCALE, steps)


def reference(obs, pred, weight, angpix, min_b, max_b, min_scale, steps) -> tuple:
    n, d = obs.shape[0], obs.shape[1]
    r = _rings(d, obs.device)
    use = (r < d // 2 + 1).double()
    o, p, w = obs.double(), pred.double(), weight.double() * use
    cross = p[..., 0] * o[..., 0] + p[..., 1] * o[..., 1]
    p2 = (p * p).sum(-1)
    err = torch.empty(n, steps, dtype=torch.float64, device=obs.device)
    scale = torch.empty(n, steps, dtype=torch.float64, device=obs.device)
    for s in range(steps):
        b_px = (min_b + s * (max_b - min_b) / (steps - 1)) / (d * angpix) ** 2
        b = torch.exp(-b_px * r * r / 4.0)
        num = (w * b * cross).sum(dim=(1, 2))
        den = (w * b * b * p2).sum(dim=(1, 2))
        a = torch.where(den > 1e-20, num / den, num / 1e-20).clamp(min=min_scale)
        diff = o - a[:, None, None, None] * b[None, :, :, None] * p
        err[:, s] = (w * (diff * diff).sum(-1)).sum(dim=(1, 2))
        scale[:, s] = a
    return err.to(obs.dtype), scale.to(obs.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n, d, steps = s["N"], s["D"], s["S"]
    pix = n * d * (d // 2 + 1)
    return {"bytes": 16 * pix + 4 * d * (d // 2 + 1) + 8 * n * steps, "flops": 8 * pix * steps}
