"""Log compression and dynamic-range clamp of Whisper's log-mel features (whisper.audio.log_mel_spectrogram,
HF WhisperFeatureExtractor batched path): y = log10(max(mel, 1e-10)); y = max(y, max_over_example(y) - 8);
out = (y + 4) / 4. Input/output float32 [B, n_mels, frames]; the max is taken per example."""
import torch

META = {
    "name": "whisper_log_mel_clamp",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"B": 2, "M": 16, "T": 1100},
        "ragged": {"B": 3, "M": 80, "T": 333},
        "large": {"B": 16, "M": 128, "T": 3000},
    },
    "baseline_notes": "Two launches over a persistent grid of 40 programs (910B vector cores), 8,192-float chunks: "
                      "the first writes each chunk's max of log10(mel) to a [B, chunks] buffer, the second reduces "
                      "its example's row of that buffer (47 floats) and applies the clamp and scale to its chunk.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """mel [B, M, T] float32: mel-filtered power (log-normal spread over ~12 decades, some exact zeros from
    silence/padding at the end of each example)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    log_mel = torch.randn(s["B"], s["M"], s["T"], generator=g) * 2.0 - 3.0
    log_mel += torch.linspace(1.0, -1.0, s["M"])[None, :, None]
    mel = (10.0 ** log_mel).to(torch.float32)
    mel[:, :, -(s["T"] // 7):] = 0.0
    return (mel.contiguous().to(device),)


def reference(mel: torch.Tensor) -> torch.Tensor:
    y = torch.clamp(mel.double(), min=1e-10).log10()
    top = y.amax(dim=(1, 2), keepdim=True)
    y = torch.maximum(y, top - 8.0)
    return ((y + 4.0) / 4.0).to(torch.float32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["M"] * s["T"]
    return {"bytes": 8 * n, "flops": 5 * n}
