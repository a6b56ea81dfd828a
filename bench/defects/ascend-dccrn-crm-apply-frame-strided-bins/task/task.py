"""DCCRN complex ratio mask ('C' masking mode) applied to the STFT of the noisy speech.

The ConvSTFT output spec [B, 2F, T] stacks the real part (rows 0..F-1) over the imaginary part
(rows F..2F-1), time contiguous. The decoder emits the mask [B, 2, F-1, T] for bins 1..F-1 (the DC
bin was dropped before the encoder and is padded back with a zero mask). The enhanced spectrum is
the complex product (real + j imag)(mask_real + j mask_imag), returned stacked the same way [B, 2F, T].
"""
import torch

META = {
    "name": "dccrn_complex_ratio_mask",
    "level": 2,
    "category": "fused",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"B": 2, "F": 17, "T": 40},
        "ragged": {"B": 3, "F": 33, "T": 77},
        "large": {"B": 32, "F": 257, "T": 1600},
    },
    "baseline_notes": "Persistent grid of 40 programs (the vector cores); program p walks the (batch, frequency "
                      "row) pairs p, p + 40, ... and each row in 1024-frame tiles along the contiguous time axis: "
                      "loads real, imag and the two mask rows (zero for the DC row), complex multiply in fp32, "
                      "two stores; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """spec [B, 2F, T] (real over imag) and the decoder's mask [B, 2, F-1, T]."""
    s = META["sizes"][size]
    B, F, T = s["B"], s["F"], s["T"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    spec = torch.randn(B, 2 * F, T, generator=g) * 3.0
    mask = torch.randn(B, 2, F - 1, T, generator=g) * 0.7
    return spec.to(device=device, dtype=dt), mask.to(device=device, dtype=dt)


def reference(spec: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    F = spec.shape[1] // 2
    real, imag = spec[:, :F], spec[:, F:]
    mask_real = torch.nn.functional.pad(mask[:, 0], [0, 0, 1, 0])
    mask_imag = torch.nn.functional.pad(mask[:, 1], [0, 0, 1, 0])
    real, imag = real * mask_real - imag * mask_imag, real * mask_imag + imag * mask_real
    return torch.cat([real, imag], 1)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    B, F, T = s["B"], s["F"], s["T"]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": item * (2 * B * 2 * F * T + B * 2 * (F - 1) * T), "flops": 6 * B * F * T}
