"""Chromaprint sub-fingerprints: 16 Haar-like classifiers on the chroma image's integral image (fingerprint_calculator.cpp).

Chromaprint (acoustid/chromaprint, default TEST2 configuration) turns the filtered, L2-normalised
12-band chroma image of a track (one row per frame) into one 32-bit sub-fingerprint per frame offset
x in [0, T - 16]: for each of the 16 classifiers of kClassifiersTest2, Filter(type, y, height, width)
compares box sums of the integral image over rows [x, x + width) and bands [y, y + height) (types
0-5: whole box, two halves along bands, two halves along time, checkerboard, three bands, three
time slices) through SubtractLog(a, b) = log((1 + a) / (1 + b)), Quantizer(t0, t1, t2) maps the value
to 0..3 and its Gray code (0, 1, 3, 2) is shifted into the result, first classifier highest.
Inputs: image fp32 [B, T, 12], filters int32 [16, 4] (type, y, height, width), thresholds fp64
[16, 3]. Output: int32 [B, T - 15] (the uint32 bit pattern). Box sums and logs in fp64, as
Chromaprint does in double.
"""
import torch

CLASSIFIERS = (  # kClassifiersTest2: (type, y, height, width), (t0, t1, t2)
    ((0, 4, 3, 15), (1.98215, 2.35817, 2.63523)),
    ((4, 4, 6, 15), (-1.03809, -0.651211, -0.282167)),
    ((1, 0, 4, 16), (-0.298702, 0.119262, 0.558497)),
    ((3, 8, 2, 12), (-0.105439, 0.0153946, 0.135898)),
    ((3, 4, 4, 8), (-0.142891, 0.0258736, 0.200632)),
    ((4, 0, 3, 5), (-0.826319, -0.590612, -0.368214)),
    ((1, 2, 2, 9), (-0.557409, -0.233035, 0.0534525)),
    ((2, 7, 3, 4), (-0.0646826, 0.00620476, 0.0784847)),
    ((2, 6, 2, 16), (-0.192387, -0.029699, 0.215855)),
    ((2, 1, 3, 2), (-0.0397818, -0.00568076, 0.0292026)),
    ((5, 10, 1, 15), (-0.53823, -0.369934, -0.190235)),
    ((3, 6, 2, 10), (-0.124877, 0.0296483, 0.139239)),
    ((2, 1, 1, 14), (-0.101475, 0.0225617, 0.231971)),
    ((3, 5, 6, 4), (-0.0799915, -0.00729616, 0.063262)),
    ((1, 9, 2, 12), (-0.272556, 0.019424, 0.302559)),
    ((3, 4, 2, 14), (-0.164292, -0.0321188, 0.0846339)),
)
MAX_WIDTH = 16
N_BANDS = 12
FILTER_COEFFS = (0.25, 0.75, 1.0, 0.75, 0.25)  # kChromaFilterCoefficients, used to build realistic inputs

META = {
    "name": "chromaprint_subfingerprints",
    "level": 2,
    "category": "fused",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"B": 2, "T": 40},
        "ragged": {"B": 3, "T": 37},
        "large": {"B": 2048, "T": 968},
    },
    "baseline_notes": "Two kernels: one program per track builds the zero-padded fp64 integral image, stored band-major "
                      "[13, T+1] so that consecutive offsets are contiguous, in 64-frame chunks (band cumsum, time "
                      "cumsum plus the carried last row); then a (cdiv(T-15, 128), B) grid where each program loops "
                      "over the 16 classifiers, reads each filter's geometry and thresholds as scalars, gathers its box "
                      "corners for 128 offsets, takes log((1+a)/(1+b)) in fp64, quantises, Gray-codes and shifts the "
                      "2 bits into a register word; one int32 store. 4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Chroma image as Chromaprint's ChromaFilter + ChromaNormalizer produce it: raw band energies
    (a few dominant pitch classes drifting over time) smoothed by the 5-tap filter along time and
    L2-normalised per frame (rows of norm < 0.01 set to zero)."""
    s = META["sizes"][size]
    b, t = s["B"], s["T"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    raw = torch.rand(b, t + 4, N_BANDS, generator=g, dtype=torch.float64) ** 3
    key = torch.randint(0, N_BANDS, (b, (t + 4) // 32 + 1), generator=g).repeat_interleave(32, dim=1)[:, :t + 4]
    raw.scatter_add_(2, key[:, :, None], 2.0 * torch.rand(b, t + 4, 1, generator=g, dtype=torch.float64))
    raw[:, :, :] *= (torch.rand(b, t + 4, 1, generator=g, dtype=torch.float64) > 0.02)
    filt = sum(c * raw[:, k:k + t] for k, c in enumerate(FILTER_COEFFS))
    norm = filt.pow(2).sum(-1, keepdim=True).sqrt()
    image = torch.where(norm < 0.01, torch.zeros_like(filt), filt / norm.clamp_min(0.01))
    filters = torch.tensor([f for f, _ in CLASSIFIERS], dtype=torch.int32)
    thresholds = torch.tensor([q for _, q in CLASSIFIERS], dtype=torch.float64)
    return image.to(device=device, dtype=dt), filters.to(device), thresholds.to(device)


def reference(image: torch.Tensor, filters: torch.Tensor, thresholds: torch.Tensor) -> torch.Tensor:
    b, t, nb = image.shape
    ii = torch.zeros(b, t + 1, nb + 1, dtype=torch.float64, device=image.device)
    ii[:, 1:, 1:] = image.double().cumsum(2).cumsum(1)
    x = torch.arange(t - MAX_WIDTH + 1, device=image.device)

    def area(r1, c1, r2, c2):
        return ii[:, r2, c2] - ii[:, r1, c2] - ii[:, r2, c1] + ii[:, r1, c1]

    bits = torch.zeros(b, x.numel(), dtype=torch.int64, device=image.device)
    for (kind, y, h, w), (t0, t1, t2) in zip(filters.tolist(), thresholds.tolist()):
        if kind == 0:
            a, z = area(x, y, x + w, y + h), 0.0
        elif kind == 1:
            a, z = area(x, y + h // 2, x + w, y + h), area(x, y, x + w, y + h // 2)
        elif kind == 2:
            a, z = area(x + w // 2, y, x + w, y + h), area(x, y, x + w // 2, y + h)
        elif kind == 3:
            a = area(x, y + h // 2, x + w // 2, y + h) + area(x + w // 2, y, x + w, y + h // 2)
            z = area(x, y, x + w // 2, y + h // 2) + area(x + w // 2, y + h // 2, x + w, y + h)
        elif kind == 4:
            a = area(x, y + h // 3, x + w, y + 2 * (h // 3))
            z = area(x, y, x + w, y + h // 3) + area(x, y + 2 * (h // 3), x + w, y + h)
        else:
            a = area(x + w // 3, y, x + 2 * (w // 3), y + h)
            z = area(x, y, x + w // 3, y + h) + area(x + 2 * (w // 3), y, x + w, y + h)
        v = torch.log((1.0 + a) / (1.0 + z))
        q = (v >= t0).long() + (v >= t1).long() + (v >= t2).long()
        bits = (bits << 2) | (q ^ (q >> 1))
    bits = bits & 0xFFFFFFFF
    return torch.where(bits >= 2 ** 31, bits - 2 ** 32, bits).to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    b, t = s["B"], s["T"]
    n_sub = t - MAX_WIDTH + 1
    return {"bytes": 4 * b * t * N_BANDS + 8 * b * (t + 1) * (N_BANDS + 1) * 2 + 4 * b * n_sub,
            "flops": 2 * b * t * N_BANDS + 16 * 12 * b * n_sub}
