"""Dejavu landmark hashing: pair every spectral peak with the next peaks of its fan (fingerprint.generate_hashes).

Dejavu (worldveil/dejavu, fingerprint.py) sorts each track's constellation peaks by time and, for
every anchor peak i, pairs it with peaks i+1 .. i+FAN-1 (DEFAULT_FAN_VALUE = 15); a pair is a
landmark when MIN_HASH_TIME_DELTA (0) <= t2 - t1 <= MAX_HASH_TIME_DELTA (200 frames). Dejavu keys a
landmark by the SHA1 of "f1|f2|dt"; a GPU port keys it by the packed integer
(f1 << 20) | (f2 << 8) | dt (f < 4096 spectrogram bins, dt < 256 frames), which keeps the same
information. Each track has n_peaks[b] valid peaks (padded to P with zeros).

Inputs: freqs int32 [B, P] (bin of each peak), times int32 [B, P] (frame, non-decreasing over the
valid peaks), n_peaks int32 [B]. Output: int64 keys [B, P, FAN-1], slot [b, i, j-1] for the pair
(i, i+j); -1 where the pair does not exist (i+j >= n_peaks) or its dt is outside [0, 200].
"""
import torch

FAN = 15           # DEFAULT_FAN_VALUE of the original Dejavu
MIN_DT = 0         # MIN_HASH_TIME_DELTA
MAX_DT = 200       # MAX_HASH_TIME_DELTA
N_BINS = 2049      # DEFAULT_WINDOW_SIZE 4096 -> 2049 one-sided bins

META = {
    "name": "dejavu_landmark_hashes",
    "level": 2,
    "category": "gather",
    "dtypes": ["int32"],
    "tolerance": {"int32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"B": 3, "P": 40},
        "ragged": {"B": 5, "P": 37},
        "large": {"B": 512, "P": 8192},
    },
    "baseline_notes": "Grid (cdiv(P, 128), B): each program takes 128 anchors of one track as a [128, 16] "
                      "tile of (anchor, fan offset), gathers the partner peaks i+j (j = 1..14) with masked "
                      "loads, packs (f1 << 20) | (f2 << 8) | dt in int64 and stores the 14 keys of each anchor "
                      "(-1 where the pair is missing or dt is out of range). 4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Per track: peaks sorted by frame (about 1.8 peaks per frame, with a few silences of 150-400
    frames so that some pairs exceed MAX_DT), random bins; ragged peak counts, padded to P."""
    s = META["sizes"][size]
    b, p = s["B"], s["P"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    gaps = torch.bernoulli(torch.full((b, p), 0.45), generator=g) + torch.bernoulli(torch.full((b, p), 0.1), generator=g)
    silence = torch.rand(b, p, generator=g) < 0.004
    gaps = torch.where(silence, torch.randint(150, 400, (b, p), generator=g).double(), gaps.double())
    times = torch.cumsum(gaps, dim=1).to(torch.int64)
    freqs = torch.randint(0, N_BINS, (b, p), generator=g)
    n_peaks = torch.randint(max(1, (3 * p) // 4), p + 1, (b,), generator=g)
    n_peaks[0] = p
    valid = torch.arange(p)[None, :] < n_peaks[:, None]
    times = torch.where(valid, times, torch.zeros_like(times))
    freqs = torch.where(valid, freqs, torch.zeros_like(freqs))
    return (freqs.to(device=device, dtype=dt), times.to(device=device, dtype=dt),
            n_peaks.to(device=device, dtype=torch.int32))


def reference(freqs: torch.Tensor, times: torch.Tensor, n_peaks: torch.Tensor) -> torch.Tensor:
    b, p = freqs.shape
    f, t = freqs.long(), times.long()
    i = torch.arange(p, device=f.device)
    j = torch.arange(1, FAN, device=f.device)
    partner = i[:, None] + j[None, :]                                  # [P, FAN-1]
    exists = partner[None] < n_peaks.long()[:, None, None]             # [B, P, FAN-1]
    idx = partner.clamp(max=p - 1).reshape(1, -1).expand(b, -1)
    f2 = f.gather(1, idx).reshape(b, p, FAN - 1)
    t2 = t.gather(1, idx).reshape(b, p, FAN - 1)
    f1, t1 = f[:, :, None], t[:, :, None]
    d = t2 - t1
    ok = exists & (d >= MIN_DT) & (d <= MAX_DT)
    key = (f1 << 20) | (f2 << 8) | d
    return torch.where(ok, key, torch.full_like(key, -1))


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    b, p = s["B"], s["P"]
    return {"bytes": 8 * b * p + 4 * b + 8 * b * p * (FAN - 1), "flops": 6 * b * p * (FAN - 1)}
