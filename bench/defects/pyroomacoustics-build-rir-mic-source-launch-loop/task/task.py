"""Room impulse responses of a shoebox room from its image sources (pyroomacoustics compute_rir / build_rir).

For every microphone m and source s, each image source i (position img[s, i], damping
beta[s, i] = product of the wall reflection coefficients along its path) arrives after
tau = fs * |img - mic| / c + FDL2 samples (pyroomacoustics adds the global delay FDL2 = 40 so that
the filter fits) with amplitude alpha = beta / (4 pi |img - mic|). It is written into the RIR as an
81-tap Hann-windowed fractional-delay sinc around floor(tau):

    rir[m, s, floor(tau) + f] += alpha * hann81[f + 40] * sinc(f - frac(tau)),   f = -40 .. 40

with hann81 = numpy.hanning(81) and sinc(x) = sin(pi x) / (pi x). Inputs: images [S, N, 3], damping
[S, N], mics [M, 3] (fp32, metres), fs, c, rir_len. Returns rir [M, S, rir_len] fp32.
"""
import math

import torch

META = {
    "name": "shoebox_rir_builder",
    "level": 2,
    "category": "audio",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-3}},
    "sizes": {
        "small": {"room": (4.0, 3.0, 2.5), "max_order": 3, "M": 3, "S": 2},
        "ragged": {"room": (5.0, 4.2, 2.8), "max_order": 4, "M": 2, "S": 1},
        # pyroomacoustics ShoeBox 9 x 7.5 x 3.5 m, max_order 17 (7,175 images per source),
        # 32-capsule array, 2 sources, 16 kHz
        "large": {"room": (9.0, 7.5, 3.5), "max_order": 17, "M": 32, "S": 2},
    },
    "baseline_notes": "One launch over the grid (image blocks of 32, source, microphone): each program "
                      "computes distance, delay and amplitude of its 32 images and adds their 81-tap "
                      "windowed sincs (taps padded to 128 lanes, masked) into the RIR with relaxed "
                      "atomic adds. 4 warps, no autotune.",
    "deterministic": True,
}
FS = 16000.0
C = 343.0
FDL = 81
ABSORPTION = (0.25, 0.25, 0.2, 0.3, 0.15, 0.4)  # walls x0, x1, y0, y1, z0 (floor), z1 (ceiling)


def _image_lattice(max_order: int) -> torch.Tensor:
    r = torch.arange(-max_order, max_order + 1)
    idx = torch.cartesian_prod(r, r, r)
    return idx[idx.abs().sum(dim=1) <= max_order]


def _images(src: torch.Tensor, room: tuple, idx: torch.Tensor) -> tuple:
    """Image positions and dampings of one source for the reflection indices idx [N, 3]."""
    beta = torch.sqrt(1.0 - torch.tensor(ABSORPTION, dtype=torch.float64))
    pos = torch.empty(idx.shape[0], 3, dtype=torch.float64)
    damp = torch.ones(idx.shape[0], dtype=torch.float64)
    for d in range(3):
        n = idx[:, d].double()
        L = room[d]
        odd = torch.remainder(n, 2.0)
        pos[:, d] = torch.where(odd == 0, n * L + src[d], (n + 1.0) * L - src[d])
        # reflections on the far wall (x = L) and near wall (x = 0) along the path
        far = torch.where(n > 0, torch.ceil(n / 2.0), torch.floor(n.abs() / 2.0))
        near = n.abs() - far
        damp = damp * beta[2 * d] ** near * beta[2 * d + 1] ** far
    return pos, damp


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """images [S, N, 3], damping [S, N], mics [M, 3], fs, c, rir_len."""
    s = META["sizes"][size]
    room, M, S = s["room"], s["M"], s["S"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    lo = torch.tensor([0.5, 0.5, 0.5], dtype=torch.float64)
    hi = torch.tensor(room, dtype=torch.float64) - 0.5
    srcs = lo + torch.rand(S, 3, generator=g, dtype=torch.float64) * (hi - lo)
    # a compact array (radius 4.2 cm) around a random centre
    centre = lo + 0.5 + torch.rand(3, generator=g, dtype=torch.float64) * (hi - lo - 1.0)
    u = torch.randn(M, 3, generator=g, dtype=torch.float64)
    mics = centre + 0.042 * u / u.norm(dim=1, keepdim=True)
    idx = _image_lattice(s["max_order"])
    imgs, damps = zip(*(_images(src, room, idx) for src in srcs))
    images = torch.stack(imgs).to(dt)
    damping = torch.stack(damps).to(dt)
    mics = mics.to(dt)
    dist = (images.double()[None] - mics.double()[:, None, None, :]).norm(dim=-1)
    rir_len = int(math.ceil(float(dist.max()) * FS / C)) + FDL + 1
    return images.to(device), damping.to(device), mics.to(device), FS, C, rir_len


def reference(images: torch.Tensor, damping: torch.Tensor, mics: torch.Tensor,
              fs: float, c: float, rir_len: int) -> torch.Tensor:
    S, N, _ = images.shape
    M = mics.shape[0]
    fdl2 = (FDL - 1) // 2
    f = torch.arange(-fdl2, fdl2 + 1, device=images.device, dtype=torch.float64)
    hann = 0.5 - 0.5 * torch.cos(2.0 * math.pi * (f + fdl2) / (FDL - 1))
    rir = torch.zeros(M, S, rir_len, dtype=torch.float64, device=images.device)
    for m in range(M):
        dist = (images.double() - mics[m].double()).norm(dim=-1)          # [S, N]
        tau = fs * dist / c + fdl2
        alpha = damping.double() / (4.0 * math.pi * dist)
        ip = torch.floor(tau)
        frac = tau - ip
        val = alpha[..., None] * hann * torch.sinc(f - frac[..., None])  # [S, N, FDL]
        pos = (ip[..., None] + f).long()
        for s in range(S):
            rir[m, s].index_add_(0, pos[s].reshape(-1), val[s].reshape(-1))
    return rir.to(images.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = _image_lattice(s["max_order"]).shape[0]
    taps = s["M"] * s["S"] * n * FDL
    return {"bytes": 4 * taps, "flops": 30 * taps}
