"""Correlation maps to displacements: OpenPIV's vectorized_correlation_to_displacements (Gaussian
sub-pixel fit) together with vectorized_sig2noise_ratio ('peak2peak', width 2).

For every interrogation window w (row-major over the n_rows x n_cols vector grid) the M x M
correlation map corr[w] (output of fft_correlate_images, normalized: values in [0, 1], zero shift at
the centre M // 2) gives:
  * first peak (i1, j1) = the first row-major argmax, p1 its value;
  * second peak p2 = the largest value outside the (2*2+1)^2 square around (i1, j1), (i2, j2) its
    first argmax;
  * the Gaussian three-point fit on c + eps (eps = 1e-7) around the first peak,
        di = (ln cl - ln cr) / (2 ln cl - 4 ln c + 2 ln cr)   (0 where the denominator is 0),
    likewise dj along the row; v = i1 + di - M // 2 (rows, downwards), u = j1 + dj - M // 2;
    a first peak on the map border (i1 or j1 equal to 0 or M - 1) is invalid: u = v = 0 (OpenPIV
    writes NaN there; the port writes 0 and leaves the flagging to sig2noise = 0);
  * sig2noise = p1 / p2 (0 where p2 <= 0), set to 0 when p1 < 1e-3, p2 < 1e-3 or either peak lies on
    the map border.
Returns (u, v, sig2noise), each [n_rows, n_cols] fp32.
"""
import math

import torch

META = {
    "name": "piv_peak_fit_sig2noise",
    "level": 2,
    "category": "piv",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"n_rows": 3, "n_cols": 5, "M": 32},
        "ragged": {"n_rows": 4, "n_cols": 7, "M": 24},
        "large": {"n_rows": 136, "n_cols": 204, "M": 64},
    },
    "baseline_notes": "One launch over a (n_cols, n_rows) grid, one program per correlation map: the whole "
                      "M x M map is one [BM, BM] tile (BM = next_power_of_2(M)), max with argmax, the "
                      "+-2 square masked out for the second peak, five scalar loads for the Gaussian fit; "
                      "4 warps, no autotune.",
    "deterministic": True,
}
EPS = 1e-7
WIDTH = 2


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Synthetic normalized correlation maps corr [n_rows * n_cols, M, M] and the grid shape.

    Each map: a Gaussian displacement peak (sigma 1.2-2 px) at the centre plus a smooth vortex-like
    displacement field, a weaker spurious peak anywhere, and uniform background noise. Every 17th map
    (k % 17 == 11) holds noise only, and maps with k % 17 == 5 carry a strong peak wrapped onto the
    map border (a displacement beyond a quarter window), as circular correlation produces.
    """
    s = META["sizes"][size]
    n_rows, n_cols, M = s["n_rows"], s["n_cols"], s["M"]
    n = n_rows * n_cols
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    gy, gx = torch.meshgrid(torch.linspace(0, 1, n_rows), torch.linspace(0, 1, n_cols), indexing="ij")
    dx = (0.05 + 0.18 * torch.sin(2 * math.pi * (gy + 0.1))) * M
    dy = 0.15 * torch.cos(2 * math.pi * gx) * torch.sin(math.pi * gy) * M
    k = torch.arange(n)
    pi = M // 2 + dy.reshape(-1) + 0.3 * torch.randn(n, generator=g)
    pj = M // 2 + dx.reshape(-1) + 0.3 * torch.randn(n, generator=g)
    amp = 0.45 + 0.4 * torch.rand(n, generator=g)
    sig = 1.2 + 0.8 * torch.rand(n, generator=g)
    wrapped = k % 17 == 5
    pi = torch.where(wrapped, torch.zeros(n), pi)
    amp = torch.where(k % 17 == 11, torch.zeros(n), amp)
    qi = torch.rand(n, generator=g) * (M - 1)
    qj = torch.rand(n, generator=g) * (M - 1)
    qamp = 0.1 + 0.2 * torch.rand(n, generator=g)
    noise = 0.08 * torch.rand(n, M, M, generator=g)
    ii = torch.arange(M, dtype=torch.float32)[:, None]
    jj = torch.arange(M, dtype=torch.float32)[None, :]
    corr = torch.empty(n, M, M)
    for a in range(0, n, 2048):
        b = min(n, a + 2048)
        r1 = (ii - pi[a:b, None, None]) ** 2 + (jj - pj[a:b, None, None]) ** 2
        r2 = (ii - qi[a:b, None, None]) ** 2 + (jj - qj[a:b, None, None]) ** 2
        corr[a:b] = (amp[a:b, None, None] * torch.exp(-r1 / (2 * sig[a:b, None, None] ** 2))
                     + qamp[a:b, None, None] * torch.exp(-r2 / 4.0) + noise[a:b])
    return corr.to(device=device, dtype=dt), n_rows, n_cols


def reference(corr: torch.Tensor, n_rows: int, n_cols: int) -> tuple:
    n, M, _ = corr.shape
    c = corr.double()
    flat = c.reshape(n, M * M)
    p1 = flat.amax(dim=1)
    k1 = flat.argmax(dim=1)
    i1, j1 = k1 // M, k1 % M
    ar = torch.arange(M, device=c.device)
    near = ((ar[None, :, None] - i1[:, None, None]).abs() <= WIDTH) & \
           ((ar[None, None, :] - j1[:, None, None]).abs() <= WIDTH)
    flat2 = c.masked_fill(near, float("-inf")).reshape(n, M * M)
    p2 = flat2.amax(dim=1)
    k2 = flat2.argmax(dim=1)
    i2, j2 = k2 // M, k2 % M
    edge1 = (i1 == 0) | (i1 == M - 1) | (j1 == 0) | (j1 == M - 1)
    edge2 = (i2 == 0) | (i2 == M - 1) | (j2 == 0) | (j2 == M - 1)
    flag = (p1 < 1e-3) | (p2 < 1e-3) | edge1 | edge2
    s2n = torch.where(p2 > 0, p1 / p2.clamp(min=1e-30), torch.zeros_like(p1))
    s2n = torch.where(flag, torch.zeros_like(s2n), s2n)

    ic = torch.where(edge1, torch.full_like(i1, M // 2), i1)
    jc = torch.where(edge1, torch.full_like(j1, M // 2), j1)
    w = torch.arange(n, device=c.device)
    ce = c + EPS
    lc = torch.log(ce[w, ic, jc])
    ll, lr = torch.log(ce[w, ic - 1, jc]), torch.log(ce[w, ic + 1, jc])
    ld, lu = torch.log(ce[w, ic, jc - 1]), torch.log(ce[w, ic, jc + 1])
    den1 = 2 * ll - 4 * lc + 2 * lr
    den2 = 2 * ld - 4 * lc + 2 * lu
    di = torch.where(den1 != 0, (ll - lr) / torch.where(den1 != 0, den1, torch.ones_like(den1)), torch.zeros_like(den1))
    dj = torch.where(den2 != 0, (ld - lu) / torch.where(den2 != 0, den2, torch.ones_like(den2)), torch.zeros_like(den2))
    v = ic.double() + di - M // 2
    u = jc.double() + dj - M // 2
    v = torch.where(edge1, torch.zeros_like(v), v)
    u = torch.where(edge1, torch.zeros_like(u), u)
    shape = (n_rows, n_cols)
    return (u.reshape(shape).to(corr.dtype), v.reshape(shape).to(corr.dtype), s2n.reshape(shape).to(corr.dtype))


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n, M = s["n_rows"] * s["n_cols"], s["M"]
    return {"bytes": 4 * n * M * M + 12 * n, "flops": 4 * n * M * M}
