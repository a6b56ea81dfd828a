"""Spectral-kurtosis RFI statistic per input over sk_step samples (kotekan CHIME rfi_chime_timesum, Nita & Gary SK).

x [B, M, E] uint8 is a gulp of B * M time samples of E inputs (one frequency), cut into B
integrations of M = sk_step samples; each byte is a CHIME 4+4-bit offset-encoded complex sample,
real part in the high nibble, imaginary part in the low nibble, value = nibble - 8. With
p = re^2 + im^2, S1 = sum_M p and S2 = sum_M p^2, the estimator is
    SK[b, e] = (M + 1) / (M - 1) * (M * S2 / S1^2 - 1)
returned as fp32 [B, E]. S1 and S2 are exact integers in fp32.
"""
import torch

META = {
    "name": "spectral_kurtosis_4bit",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"B": 4, "M": 16, "E": 40},
        "ragged": {"B": 3, "M": 24, "E": 77},
        "large": {"B": 128, "M": 256, "E": 2048},
    },
    "baseline_notes": "Program per (integration, 256-input block): walks the integration's M samples in "
                      "32-row tiles of contiguous uint8 bytes, unpacks the nibbles in registers, "
                      "accumulates S1 and S2 per input in fp32, writes SK; 4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [B, M, E] uint8: Gaussian noise quantised to 4 bits per component, a few inputs with bursty RFI."""
    s = META["sizes"][size]
    B, M, E = s["B"], s["M"], s["E"]
    g = torch.Generator().manual_seed(seed)
    v = torch.randn(B, M, E, 2, generator=g) * 2.5
    burst = torch.rand(B, M, E, 1, generator=g) < 0.05
    v = torch.where(burst & (torch.arange(E) % 9 == 0)[None, None, :, None], v * 3.0, v)
    q = (v.round().clamp(-7, 7) + 8).to(torch.uint8)
    x = (q[..., 0] << 4) | q[..., 1]
    return (x.to(device),)


def reference(x: torch.Tensor) -> torch.Tensor:
    M = x.shape[1]
    v = x.long()
    re = (v >> 4) - 8
    im = (v & 15) - 8
    p = (re * re + im * im).double()
    s1 = p.sum(1)
    s2 = (p * p).sum(1)
    return ((M + 1) / (M - 1) * (M * s2 / (s1 * s1) - 1)).to(torch.float32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    B, M, E = s["B"], s["M"], s["E"]
    return {"bytes": B * M * E + 4 * B * E, "flops": 6 * B * M * E}
