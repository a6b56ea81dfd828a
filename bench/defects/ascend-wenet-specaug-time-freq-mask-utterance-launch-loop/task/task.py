"""SpecAugment time and frequency masking of a padded fbank batch (WeNet spec_aug, batched on the NPU).

WeNet's `spec_aug` (wenet/dataset/processor.py) zeroes, per utterance, num_f_mask frequency bands
[f0, f1) of width 1..max_f (default 2 bands, max_f = 10) and num_t_mask time bands [t0, t1) of width
1..max_t (default 2 bands, max_t = 50) of its [frames, num_mel_bins] fbank matrix. Here the bands are
drawn on the host beforehand (the random draws are not the kernel's job) and the masking runs on a
padded batch:
    out[b, t, f] = 0                if t0 <= t < t1 for one of utterance b's time bands
                                    or f0 <= f < f1 for one of its frequency bands
                   feats[b, t, f]   otherwise
Bands are half-open, clipped to the utterance (t1 <= len_b, f1 <= F); a band may be empty.
"""
import torch

META = {
    "name": "specaug_time_freq_mask",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"B": 3, "T": 45, "F": 80, "NT": 2, "NF": 2},
        "ragged": {"B": 5, "T": 71, "F": 40, "NT": 2, "NF": 2},
        "large": {"B": 128, "T": 1000, "F": 80, "NT": 2, "NF": 2},
    },
    "baseline_notes": "One launch over the whole padded batch: 40 programs (the A2's vector cores) loop over "
                      "blocks of 32 frames x all mel bins (BF = next_power_of_2(F)); per block the utterance's "
                      "band bounds are four scalar loads each, the keep masks are fp32 compares of the frame and "
                      "bin indices, one masked load, a select and one masked store; no autotune.",
    "deterministic": True,
}
MAX_T, MAX_F = 50, 10   # WeNet spec_aug defaults


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """feats [B, T, F] (log-mel, zero-padded past each length), t_bands int32 [B, NT, 2], f_bands int32 [B, NF, 2]."""
    s = META["sizes"][size]
    B, T, F, NT, NF = s["B"], s["T"], s["F"], s["NT"], s["NF"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    lens = torch.randint(max(1, T // 2), T + 1, (B,), generator=g)
    lens[0] = T
    feats = torch.randn(B, T, F, generator=g) * 2.5 + 9.0
    feats = feats * (torch.arange(T)[None, :, None] < lens[:, None, None])
    t0 = (torch.rand(B, NT, generator=g) * lens[:, None]).long()
    t1 = torch.minimum(t0 + torch.randint(1, MAX_T + 1, (B, NT), generator=g), lens[:, None])
    f0 = torch.randint(0, F, (B, NF), generator=g)
    f1 = torch.clamp(f0 + torch.randint(1, MAX_F + 1, (B, NF), generator=g), max=F)
    t_bands = torch.stack([t0, t1], dim=-1).to(torch.int32)
    f_bands = torch.stack([f0, f1], dim=-1).to(torch.int32)
    return feats.to(dt).to(device), t_bands.to(device), f_bands.to(device)


def reference(feats: torch.Tensor, t_bands: torch.Tensor, f_bands: torch.Tensor) -> torch.Tensor:
    B, T, F = feats.shape
    t = torch.arange(T, device=feats.device)
    f = torch.arange(F, device=feats.device)
    tb, fb = t_bands.long(), f_bands.long()
    t_hit = ((t[None, None, :] >= tb[..., 0:1]) & (t[None, None, :] < tb[..., 1:2])).any(dim=1)   # [B, T]
    f_hit = ((f[None, None, :] >= fb[..., 0:1]) & (f[None, None, :] < fb[..., 1:2])).any(dim=1)   # [B, F]
    drop = t_hit[:, :, None] | f_hit[:, None, :]
    return feats.masked_fill(drop, 0.0)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["T"] * s["F"]
    return {"bytes": 8 * n + 8 * s["B"] * (s["NT"] + s["NF"]), "flops": n}
