"""Multilevel stationary wavelet transform of a multichannel recording (pywt.swt(x, 'sym4', level=J, axis=-1),
the undecimated "algorithme a trous").

Level j = 1 .. J filters the previous approximation (a_0 = x) with the decomposition filters upsampled by
s = 2^(j-1) and no downsampling, with periodic extension of each length-n channel (n divisible by 2^J):
    a_j[t] = sum_k dec_lo[k] * a_{j-1}[(t + s (F/2 - k)) mod n]
    d_j[t] = sum_k dec_hi[k] * a_{j-1}[(t + s (F/2 - k)) mod n]
(pywt's alignment: for db1 this gives a_1[t] = (x[t] + x[t+1]) / sqrt(2)). Returns (cA [J, B, n], cD [J, B, n])
in pywt's list order, coarsest level first: index 0 holds level J, index J-1 level 1 (trim_approx=False).
"""
import torch

META = {
    "name": "swt_sym4_multilevel",
    "level": 2,
    "category": "signal",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 3, "n": 64, "levels": 3},
        "ragged": {"B": 5, "n": 96, "levels": 3},
        "large": {"B": 384, "n": 65536, "levels": 5},
    },
    "baseline_notes": "One launch per level over a (cdiv(n, 1024), B) grid: each program filters 1024 samples of "
                      "one channel with the 8 dilated taps (periodic wrap by one compare-and-subtract), writes "
                      "a_j and d_j into the level's slices of the stacked outputs; the next level reads a_j. "
                      "4 warps, no autotune.",
    "deterministic": True,
}

# pywt.Wavelet('sym4').dec_lo; dec_hi[k] = (-1)^(k+1) dec_lo[F-1-k]
SYM4_DEC_LO = [-0.07576571478927333, -0.02963552764599851, 0.49761866763201545, 0.8037387518059161,
               0.29785779560527736, -0.09921954357684722, -0.012603967262037833, 0.0322231006040427]


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Channels x [B, n] (band-limited oscillations, spikes and noise), dec_lo [8], dec_hi [8], levels (int)."""
    s = META["sizes"][size]
    b, n, levels = s["B"], s["n"], s["levels"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    t = torch.arange(n, dtype=torch.float32)[None, :]
    freq = 0.002 + 0.05 * torch.rand(b, 1, generator=g)
    x = torch.sin(6.283 * freq * t) + 0.2 * torch.randn(b, n, generator=g)
    spikes = torch.rand(b, n, generator=g) < 0.002
    x = x - 4.0 * spikes.float()
    lo = torch.tensor(SYM4_DEC_LO, dtype=torch.float64)
    f = lo.numel()
    hi = torch.tensor([(-1) ** (k + 1) * lo[f - 1 - k].item() for k in range(f)], dtype=torch.float64)
    return x.to(device=device, dtype=dt), lo.to(device=device, dtype=dt), hi.to(device=device, dtype=dt), levels


def reference(x: torch.Tensor, dec_lo: torch.Tensor, dec_hi: torch.Tensor, levels: int) -> tuple:
    lo, hi = dec_lo.double().tolist(), dec_hi.double().tolist()
    f = len(lo)
    a = x.double()
    approx, detail = [], []
    for j in range(1, levels + 1):
        s = 2 ** (j - 1)
        na, nd = torch.zeros_like(a), torch.zeros_like(a)
        for k in range(f):
            shifted = torch.roll(a, shifts=-s * (f // 2 - k), dims=-1)
            na += lo[k] * shifted
            nd += hi[k] * shifted
        approx.append(na)
        detail.append(nd)
        a = na
    return torch.stack(approx[::-1]).to(x.dtype), torch.stack(detail[::-1]).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    elems = s["B"] * s["n"]
    return {"bytes": 12 * elems * s["levels"], "flops": 2 * 2 * 8 * elems * s["levels"]}
