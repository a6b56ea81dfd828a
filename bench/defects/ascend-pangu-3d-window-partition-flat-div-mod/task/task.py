"""Pangu-Weather 3-D Earth-specific window partition (EarthSpecificBlock, window (2, 6, 12) over
pressure level x latitude x longitude) of the padded token grid [B, Z, H, W, C].

As the Pangu pseudocode: reshape to [B, Z/2, 2, H/6, 6, W/12, 12, C], permute (0, 5, 1, 3, 2, 4, 6, 7)
and reshape to [B * nW_lon, nZ * nH_lat, 2 * 6 * 12, C]: windows grouped by longitude so that the
Earth-specific bias, indexed by the (level, latitude) window type, is shared along a latitude band.
"""
import torch

WINDOW = (2, 6, 12)

META = {
    "name": "pangu_window_partition_3d",
    "level": 2,
    "category": "layout",
    "dtypes": ["bfloat16", "float32"],
    "tolerance": {"bfloat16": {"atol": 0.0, "rtol": 0.0}, "float32": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"B": 1, "Z": 4, "H": 12, "W": 24, "C": 8},
        "ragged": {"B": 2, "Z": 4, "H": 18, "W": 36, "C": 24},
        "large": {"B": 1, "Z": 8, "H": 186, "W": 360, "C": 192},
    },
    "baseline_notes": "min(windows, 40) persistent programs, one window per step: for each of the 2 levels "
                      "the window's 6 latitude rows are moved as one [8, CHUNK] tile (rows masked to 6) of "
                      "contiguous 12 * C runs, source rows W * C apart, destination rows 12 * C apart; "
                      "CHUNK is the largest power of two dividing 12 * C (at most 1024); no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [B, Z, H, W, C]: the first-stage token grid after patch embedding (Z = 7 levels + surface, H padded 181 -> 186)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(s["B"], s["Z"], s["H"], s["W"], s["C"], generator=g)
    return (x.to(dtype=getattr(torch, dtype or META["dtypes"][0])).to(device),)


def reference(x: torch.Tensor) -> torch.Tensor:
    B, Z, H, W, C = x.shape
    wz, wh, ww = WINDOW
    y = x.reshape(B, Z // wz, wz, H // wh, wh, W // ww, ww, C).permute(0, 5, 1, 3, 2, 4, 6, 7)
    return y.reshape(B * (W // ww), (Z // wz) * (H // wh), wz * wh * ww, C).contiguous()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": 2 * s["B"] * s["Z"] * s["H"] * s["W"] * s["C"] * item, "flops": 0}
