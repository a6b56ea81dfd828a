"""RMS gain normalisation of a batch of 16-bit PCM utterances: decode to [-1, 1) as torchaudio.load(normalize=True)
does (x / 32768), then scale every utterance to a target RMS of -20 dBFS (NeMo AudioSegment.normalize_db)."""
import torch

META = {
    "name": "pcm_rms_gain_normalize",
    "level": 2,
    "category": "reduction",
    "dtypes": ["int16"],
    "tolerance": {"int16": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 3, "T": 5000},
        "ragged": {"B": 5, "T": 12345},
        "large": {"B": 64, "T": 480000},
    },
    "baseline_notes": "two launches over a (utterance, 4096-sample chunk) grid: per-chunk sums of squares into a "
                      "[B, chunks] fp32 buffer, then each chunk program sums its row's partials and writes the scaled "
                      "fp32 samples; the int16 samples are read directly by both kernels.",
    "deterministic": True,
}

TARGET_RMS = 0.1  # 10 ** (-20 / 20)
EPS = 1e-5


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """pcm [B, T] int16, 16 kHz speech-like: a loudness envelope times noise, different level per utterance."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    level = torch.rand(s["B"], 1, generator=g) * 0.3 + 0.01
    env = torch.sin(torch.linspace(0, 60.0, s["T"])[None, :] + torch.rand(s["B"], 1, generator=g) * 6.0).abs()
    wav = torch.randn(s["B"], s["T"], generator=g) * env * level
    pcm = (wav * 32768.0).round().clamp(-32768, 32767).to(torch.int16)
    return (pcm.to(device),)


def reference(pcm: torch.Tensor) -> torch.Tensor:
    x = pcm.double() / 32768.0
    rms = x.pow(2).mean(dim=1, keepdim=True).sqrt()
    return (x * (TARGET_RMS / rms.clamp_min(EPS))).to(torch.float32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["T"]
    return {"bytes": 2 * n + 4 * n, "flops": 4 * n}
