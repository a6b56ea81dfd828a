"""Negative SI-SNR training loss per separated source (MossFormer2 / Conv-TasNet, asteroid SingleSrcNegSDR('sisdr')).

For each (mixture, speaker) pair, estimate e and target s [S] are made zero-mean, s_t = <e, s> s / (|s|^2 + eps)
is the target projection and the loss is -10 log10(|s_t|^2 / (|e - s_t|^2 + eps) + eps), eps = 1e-8.
Inputs [B, C, S] in bfloat16 (bf16 training: the model's estimate and the batch's targets share the
model dtype); the loss [B, C] is float32.
"""
import torch

EPS = 1e-8

META = {
    "name": "si_snr_loss",
    "level": 2,
    "category": "loss",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 2e-2, "rtol": 1e-3}},
    "sizes": {
        "small": {"B": 3, "C": 2, "S": 3000},
        "ragged": {"B": 5, "C": 3, "S": 7777},
        "large": {"B": 128, "C": 2, "S": 64000},
    },
    "baseline_notes": "Persistent grid of min(40, B*C) programs (the vector cores); program p walks the rows "
                      "p, p + 40, ... and each row in 2048-sample tiles, loading the bf16 estimate and target and "
                      "converting to fp32 in registers, accumulating the five moments (sums, sums of squares, "
                      "cross sum) in fp32 vectors; the SI-SNR follows from the moments in one pass; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """est [B, C, S] and target [B, C, S]: speech-like targets and estimates at -5..25 dB SNR."""
    s = META["sizes"][size]
    B, C, S = s["B"], s["C"], s["S"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    env = 0.05 + 0.3 * torch.rand(B, C, 1, generator=g) * (1.0 + torch.sin(torch.linspace(0, 40, S))[None, None, :])
    target = torch.randn(B, C, S, generator=g) * env + 0.01 * torch.randn(B, C, 1, generator=g)
    snr_db = torch.rand(B, C, 1, generator=g) * 30.0 - 5.0
    noise = torch.randn(B, C, S, generator=g) * env * (10.0 ** (-snr_db / 20.0))
    gain = 0.5 + torch.rand(B, C, 1, generator=g)
    est = gain * target + noise
    return est.to(device=device, dtype=dt), target.to(device=device, dtype=dt)


def reference(est: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    e = est.double() - est.double().mean(-1, keepdim=True)
    s = target.double() - target.double().mean(-1, keepdim=True)
    dot = (e * s).sum(-1, keepdim=True)
    proj = dot / ((s * s).sum(-1, keepdim=True) + EPS) * s
    noise = e - proj
    ratio = (proj * proj).sum(-1) / ((noise * noise).sum(-1) + EPS)
    return (-10.0 * torch.log10(ratio + EPS)).to(torch.float32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["C"] * s["S"]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": 2 * n * item + 4 * s["B"] * s["C"], "flops": 8 * n}
