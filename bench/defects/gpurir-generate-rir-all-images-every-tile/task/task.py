"""Early part of a room impulse response from image-source delays and amplitudes (gpuRIR generateRIR).

gpuRIR's image-source stage (calcAmpTau) gives, for every source-receiver pair p and every image
of a shoebox room, an amplitude amp[p, i] (product of wall reflection coefficients / (4 pi d)) and
a delay tau[p, i] = d / c * fs in samples. The RIR sample t then sums one Hann-windowed sinc per image:

    rir[p, t] = sum_i amp[p, i] * 0.5 * (1 + cos(2 pi (t - tau) / Tw)) * sinc(t - tau)   for |t - tau| < Tw / 2

with sinc(x) = sin(pi x) / (pi x) and Tw = 8 ms * fs (128 samples at 16 kHz), for t in [0, n_samples).
The image list of every pair arrives sorted by delay (ascending tau), the order the ISM stage
hands it over in. Returns rir [P, n_samples] fp32.
"""
import math

import torch

META = {
    "name": "ism_rir_synthesis",
    "level": 2,
    "category": "audio",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-3}},
    "sizes": {
        # gpuRIR's example room (3 x 3 x 2.5 m, T60 = 1 s, 16 kHz); Tdiff sets the ISM part's length
        # and nb_img = ceil(2 * Tdiff * c / room_sz) images per axis.
        "small": {"n_src": 2, "n_rcv": 2, "t_diff": 0.02},
        "ragged": {"n_src": 1, "n_rcv": 3, "t_diff": 0.03},
        "large": {"n_src": 2, "n_rcv": 8, "t_diff": 0.25},
    },
    "baseline_notes": "Grid (time tiles of 64 samples, source-receiver pairs). Each program binary-searches "
                      "the pair's delay-sorted image list for the images whose window reaches its tile "
                      "(tau within Tw/2 of the tile) and loops over only those in blocks of 32, "
                      "evaluating the Hann-windowed sinc on a [64, 32] tile and summing over images at "
                      "the end. 4 warps, no autotune.",
    "deterministic": True,
}
ROOM = (3.0, 3.0, 2.5)
BETA = (0.96, 0.95, 0.97, 0.96, 0.90, 0.93)  # x1, x2, y1, y2, z1, z2 (Sabine estimate for T60 ~ 1 s)
FS = 16000.0
C = 343.0
TW = 8e-3 * FS


def _images(src: torch.Tensor, rcv: torch.Tensor, nb_img: list[int]) -> tuple:
    """gpuRIR calcAmpTau: amplitude and delay (samples) of every image on the nb_img grid, float64."""
    axes = []
    for d in range(3):
        n = torch.arange(nb_img[d], dtype=torch.float64)
        off = n - nb_img[d] // 2
        clust = torch.ceil(off / 2.0)
        rflx = off.abs().remainder(2.0)
        b1, b2 = -BETA[2 * d], -BETA[2 * d + 1]
        att = torch.pow(torch.tensor(b1, dtype=torch.float64), (clust - rflx).abs()) * \
            torch.pow(torch.tensor(b2, dtype=torch.float64), clust.abs())
        pos = clust * 2.0 * ROOM[d] + (1.0 - 2.0 * rflx) * src[d] - rcv[d]
        axes.append((att, pos))
    (ax, px), (ay, py), (az, pz) = axes
    att = (ax[:, None, None] * ay[None, :, None] * az[None, None, :]).reshape(-1)
    dist = (px[:, None, None] ** 2 + py[None, :, None] ** 2 + pz[None, None, :] ** 2).sqrt().reshape(-1)
    return att / (4.0 * math.pi * dist), dist / C * FS


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """amp [P, N], tau [P, N] (samples, ascending per row), n_samples (int), Tw (float, samples)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    room = torch.tensor(ROOM, dtype=torch.float64)
    srcs = 0.5 + torch.rand(s["n_src"], 3, generator=g, dtype=torch.float64) * (room - 1.0)
    rcvs = 0.5 + torch.rand(s["n_rcv"], 3, generator=g, dtype=torch.float64) * (room - 1.0)
    nb_img = [int(math.ceil(2.0 * s["t_diff"] * C / L)) for L in ROOM]
    amps, taus = [], []
    for src in srcs:
        for rcv in rcvs:
            amp, tau = _images(src, rcv, nb_img)
            order = torch.argsort(tau)
            amps.append(amp[order])
            taus.append(tau[order])
    amp = torch.stack(amps).to(dt)
    tau = torch.stack(taus).to(dt)
    n_samples = int(math.ceil(s["t_diff"] * FS))
    return amp.to(device), tau.to(device), n_samples, TW


def reference(amp: torch.Tensor, tau: torch.Tensor, n_samples: int, tw: float) -> torch.Tensor:
    half = tw / 2.0
    P, N = amp.shape
    rir = torch.zeros(P, n_samples, dtype=torch.float64, device=amp.device)
    taps = torch.arange(-int(half) - 1, int(half) + 2, device=amp.device, dtype=torch.float64)
    for p in range(P):
        a_all, t_all = amp[p].double(), tau[p].double()
        keep = t_all < n_samples + half
        a_all, t_all = a_all[keep], t_all[keep]
        for start in range(0, a_all.shape[0], 16384):
            a, ta = a_all[start:start + 16384], t_all[start:start + 16384]
            t = torch.floor(ta)[:, None] + taps[None, :]
            d = t - ta[:, None]
            ok = (d.abs() < half) & (t >= 0) & (t < n_samples)
            val = a[:, None] * 0.5 * (1.0 + torch.cos(2.0 * math.pi * d / tw)) * torch.sinc(d)
            rir[p].index_add_(0, t[ok].long(), val[ok])
    return rir.to(amp.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    P = s["n_src"] * s["n_rcv"]
    n = 1
    for L in ROOM:
        n *= int(math.ceil(2.0 * s["t_diff"] * C / L))
    T = int(math.ceil(s["t_diff"] * FS))
    return {"bytes": 8 * P * n + 4 * P * T, "flops": 20 * P * n * int(TW)}
