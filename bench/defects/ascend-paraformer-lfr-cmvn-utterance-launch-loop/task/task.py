"""Paraformer / FunASR WavFrontend low-frame-rate stacking + CMVN on a padded batch of fbank features:
for utterance b with L_b frames, LFR output row i (i < ceil(L_b / 6)) is the concatenation of frames
clamp(6 i + j - 3, 0, L_b - 1), j = 0..6 (three copies of the first frame on the left, the last frame
repeated on the right, as apply_lfr with lfr_m = 7, lfr_n = 6), then (row + neg_mean) * inv_std
(apply_cmvn with the am.mvn AddShift / Rescale vectors). Rows past ceil(L_b / 6) are zero.
feats [B, T, 80] fp32, out [B, ceil(T / 6), 560] fp32."""
import torch

LFR_M, LFR_N = 7, 6

META = {
    "name": "paraformer_lfr_cmvn",
    "level": 2,
    "category": "gather",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"B": 3, "T": 50, "M": 80},
        "ragged": {"B": 5, "T": 131, "M": 80},
        "large": {"B": 64, "T": 2000, "M": 80},
    },
    "baseline_notes": "One launch over the whole batch: 40 programs (AI vector cores) loop over (utterance, block of 8 "
                      "LFR rows) tasks, read the utterance length in the kernel, gather the 7 clamped source frames "
                      "of each row as an [8, 8, 128] tile, add the shift, scale, store the 560 columns.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """feats [B, T, M] (log-mel fbank, padded past each length), int32 lengths [B] (the longest = T),
    neg_mean [7 M] and inv_std [7 M] (the global CMVN of the LFR features)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    B, T, M = s["B"], s["T"], s["M"]
    feats = torch.randn(B, T, M, generator=g) * 3.0 + 8.0
    lengths = torch.randint(T // 5, T + 1, (B,), generator=g)
    lengths[0] = T
    for b in range(B):
        feats[b, lengths[b]:] = 0.0
    neg_mean = -(8.0 + torch.randn(LFR_M * M, generator=g))
    inv_std = 1.0 / (3.0 + torch.rand(LFR_M * M, generator=g))
    return (feats.to(dt).to(device), lengths.to(torch.int32).to(device), neg_mean.to(dt).to(device),
            inv_std.to(dt).to(device))


def reference(feats, lengths, neg_mean, inv_std):
    B, T, M = feats.shape
    t_out = -(-T // LFR_N)
    out = torch.zeros(B, t_out, LFR_M * M, dtype=torch.float64, device=feats.device)
    for b, length in enumerate(lengths.tolist()):
        n = -(-length // LFR_N)
        i = torch.arange(n, device=feats.device)[:, None]
        j = torch.arange(LFR_M, device=feats.device)[None, :]
        src = (i * LFR_N + j - (LFR_M - 1) // 2).clamp(0, length - 1)
        rows = feats[b].double()[src].reshape(n, LFR_M * M)
        out[b, :n] = (rows + neg_mean.double()) * inv_std.double()
    return out.to(feats.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    t_out = -(-s["T"] // LFR_N)
    return {"bytes": 4 * (s["B"] * s["T"] * s["M"] + s["B"] * t_out * LFR_M * s["M"]),
            "flops": 2 * s["B"] * t_out * LFR_M * s["M"]}
