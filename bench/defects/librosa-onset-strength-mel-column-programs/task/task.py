"""Onset-strength envelope (spectral flux) of a log-mel spectrogram: librosa.onset.onset_strength with lag=1, max_size=3.

S is the dB mel spectrogram [B, M, T] (time contiguous, librosa's layout). The reference frame is
max-filtered over 3 neighbouring mel bands (edges clamped, SuperFlux-style vibrato suppression):
ref[m, t] = max(S[m-1, t], S[m, t], S[m+1, t]). onset[b, t] = mean_m max(0, S[b, m, t] - ref[b, m, t-1])
for t >= 1, onset[b, 0] = 0.
"""
import torch

META = {
    "name": "onset_strength_superflux",
    "level": 2,
    "category": "audio",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 2, "M": 16, "T": 50},
        "ragged": {"B": 3, "M": 20, "T": 77},
        "large": {"B": 64, "M": 128, "T": 2585},
    },
    "baseline_notes": "Grid (B, cdiv(T, BLOCK_T)), BLOCK_T = 32 frames per program, the whole [M, BLOCK_T] tile "
                      "loaded along the contiguous time axis (current frames, previous frames for the mel bands "
                      "m-1, m, m+1), half-wave rectified difference, tl.sum over the mel axis; 8 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """S_db [B, M, T]: a dB mel spectrogram (top 0 dB, floor -80 dB) with random note onsets."""
    s = META["sizes"][size]
    B, M, T = s["B"], s["M"], s["T"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    base = -60.0 + 10.0 * torch.randn(B, M, 1, generator=g)
    onsets = (torch.rand(B, 1, T, generator=g) < 0.05).float() * 25.0
    env = onsets.clone()
    for _ in range(3):
        env = torch.maximum(env, torch.nn.functional.pad(env[..., :-1], (1, 0)) * 0.6)
    S = base + env * torch.rand(B, M, 1, generator=g) + 3.0 * torch.randn(B, M, T, generator=g)
    S = S.clamp(-80.0, 0.0)
    return (S.to(dt).to(device),)


def reference(S: torch.Tensor) -> torch.Tensor:
    x = S.double()
    up = torch.cat([x[:, :1], x[:, :-1]], dim=1)
    down = torch.cat([x[:, 1:], x[:, -1:]], dim=1)
    ref = torch.maximum(torch.maximum(up, x), down)
    flux = (x[..., 1:] - ref[..., :-1]).clamp_min(0.0).mean(dim=1)
    out = torch.cat([torch.zeros_like(flux[:, :1]), flux], dim=1)
    return out.to(S.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    B, M, T = s["B"], s["M"], s["T"]
    return {"bytes": 4 * B * M * T + 4 * B * T, "flops": 5 * B * M * T}
