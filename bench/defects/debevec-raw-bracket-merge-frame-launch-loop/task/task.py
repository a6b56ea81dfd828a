"""HDR merge of a raw exposure bracket: Debevec-Malik weighted average in the linear raw domain
(cv::MergeDebevec's triangle weights with a linear response, applied to Bayer data before demosaicing).

frames [N, H, W] are 12-bit RGGB mosaics stored as uint16 (black level 256, white level 4095), taken at
relative exposure times exposures [N]. Per pixel and frame: s = raw - black, u = clamp(s / (white - black),
0, 1), w = 1 - |2u - 1| + 1e-3 (hat weight, saturated and black pixels nearly ignored), radiance s / t.
The merged radiance is sum_i w_i s_i / t_i / sum_i w_i, in DN at exposure 1.
"""
import torch

BLACK = 256.0
WHITE = 4095.0
WEIGHT_FLOOR = 1e-3

META = {
    "name": "raw_bracket_hdr_merge",
    "level": 2,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 3, "H": 20, "W": 36},
        "ragged": {"N": 4, "H": 23, "W": 45},
        "large": {"N": 5, "H": 3040, "W": 4056},
    },
    "baseline_notes": "One launch over 1024-pixel blocks of the mosaic: each program loops over the N frames of the "
                      "bracket, keeps the weighted radiance sum and the weight sum in registers and stores the "
                      "merged value once; 4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """frames [N, H, W] uint16 (12-bit data), exposures [N] (EV steps of 1 around 1.0)."""
    s = META["sizes"][size]
    N, H, W = s["N"], s["H"], s["W"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    exposures = 2.0 ** (torch.arange(N, dtype=torch.float64) - (N - 1) / 2)
    coarse = torch.rand(1, 1, max(2, H // 64 + 2), max(2, W // 64 + 2), generator=g)
    field = torch.nn.functional.interpolate(coarse, size=(H, W), mode="bilinear", align_corners=True)[0, 0]
    radiance = 2.0 ** (14.0 * field.double() - 2.0)          # scene spans ~14 stops, in DN at exposure 1
    frames = torch.empty(N, H, W, dtype=torch.int32)
    for i in range(N):
        mean = radiance * exposures[i]
        shot = torch.randn(H, W, generator=g, dtype=torch.float64) * (mean.clamp(min=0.0) + 9.0).sqrt()
        frames[i] = (BLACK + mean + shot).round().clamp(0, WHITE).to(torch.int32)
    return frames.to(torch.uint16).to(device), exposures.to(dt).to(device)


def reference(frames: torch.Tensor, exposures: torch.Tensor) -> torch.Tensor:
    s = frames.double() - BLACK
    u = (s / (WHITE - BLACK)).clamp(0.0, 1.0)
    w = 1.0 - (2.0 * u - 1.0).abs() + WEIGHT_FLOOR
    t = exposures.double()[:, None, None]
    return ((w * s / t).sum(0) / w.sum(0)).to(exposures.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    px = s["H"] * s["W"]
    return {"bytes": 2 * s["N"] * px + 4 * px + 4 * s["N"], "flops": 10 * s["N"] * px}
