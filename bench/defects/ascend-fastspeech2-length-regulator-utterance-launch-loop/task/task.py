"""Duration-based length regulator of FastSpeech2 (ming024 FastSpeech2 model/modules.py LengthRegulator).

Every phoneme's encoder output row x[b, j] is repeated dur[b, j] times along the frame axis;
each utterance's expansion is zero-padded to max_len mel frames.
"""
import torch

META = {
    "name": "fastspeech2_length_regulator",
    "level": 2,
    "category": "gather",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"B": 3, "T": 24, "D": 32},
        "ragged": {"B": 5, "T": 37, "D": 48},
        "large": {"B": 16, "T": 160, "D": 256},
    },
    "baseline_notes": "One launch, persistent grid of min(B * cdiv(T, 32), 40) programs (Atlas A2 vector cores) "
                      "over (utterance, 32-phoneme chunk) items; each item gets its first frame from one masked "
                      "sum of the duration row, then per phoneme loads the D-wide row once and stores it as "
                      "[16, D] blocks of repeated rows (contiguous in the output); the last chunk zero-fills the "
                      "padding frames; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [B, T, D] encoder output (+variance embeddings), dur [B, T] int32 frames per phoneme (0 on padding), max_len."""
    s = META["sizes"][size]
    B, T, D = s["B"], s["T"], s["D"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.randn(B, T, D, generator=g)
    dur = torch.randint(0, 12, (B, T), generator=g)
    lengths = torch.randint(T // 2, T + 1, (B,), generator=g)
    lengths[0] = T
    dur[torch.arange(T)[None, :] >= lengths[:, None]] = 0
    max_len = int(dur.sum(1).max()) + 3
    return x.to(dt).to(device), dur.to(torch.int32).to(device), max_len


def reference(x: torch.Tensor, dur: torch.Tensor, max_len: int) -> torch.Tensor:
    B, T, D = x.shape
    out = torch.zeros(B, max_len, D, dtype=x.dtype, device=x.device)
    for b in range(B):
        e = torch.repeat_interleave(x[b], dur[b].long(), dim=0)
        out[b, :e.shape[0]] = e
    return out


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    frames = s["B"] * s["T"] * 11 // 2 + 3
    return {"bytes": 2 * s["B"] * s["T"] * s["D"] + 4 * s["B"] * s["T"] + 2 * frames * s["D"], "flops": 0}
