"""NDVI of a Sentinel-2 L2A tile from its 10 m uint16 band stack (processing baseline >= 04.00).

bands is [4, H, W] uint16 digital numbers in the order B02, B03, B04 (red), B08 (NIR). Surface
reflectance is (DN + BOA_ADD_OFFSET) / QUANTIFICATION_VALUE with BOA_ADD_OFFSET = -1000, clipped at 0;
the quantification value cancels in the ratio. DN 0 is nodata. NDVI = (nir - red) / (nir + red),
written as NODATA = -9999 where either band is nodata or both reflectances are 0. Output float32 [H, W].
"""
import torch

RED, NIR = 2, 3
NODATA = -9999.0

META = {
    "name": "sentinel2_ndvi",
    "level": 2,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"H": 48, "W": 64},
        "ragged": {"H": 131, "W": 257},
        "large": {"H": 10980, "W": 10980},
    },
    "baseline_notes": "Flat elementwise kernel over the H*W pixels, BLOCK=1024: loads the red and NIR uint16 planes "
                      "of the band stack directly, converts in registers, applies the BOA offset, clips at 0, "
                      "divides, writes NODATA where either DN is 0 or the sum is 0; 4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """bands [4, H, W] uint16 (B02, B03, B04, B08), boa_add_offset (float, -1000.0)."""
    s = META["sizes"][size]
    H, W = s["H"], s["W"]
    g = torch.Generator().manual_seed(seed)
    dn = torch.randint(1000, 6000, (4, H, W), generator=g, dtype=torch.int32)
    dn[NIR] += torch.randint(0, 4000, (H, W), generator=g, dtype=torch.int32)
    dark = torch.rand(H, W, generator=g) < 0.05            # water and shadow: reflectance at or below 0
    dn[:, dark] = torch.randint(1, 1001, (4, int(dark.sum())), generator=g, dtype=torch.int32)
    rows = torch.arange(H)[:, None]
    cols = torch.arange(W)[None, :]
    dn[:, cols > (W - 1) - (H - 1 - rows) * W // (2 * H) - W // 8] = 0   # the orbit swath edge: nodata
    return dn.to(torch.uint16).to(device), -1000.0


def reference(bands: torch.Tensor, boa_add_offset: float) -> torch.Tensor:
    red_dn = bands[RED].double()
    nir_dn = bands[NIR].double()
    red = (red_dn + boa_add_offset).clamp_min(0.0)
    nir = (nir_dn + boa_add_offset).clamp_min(0.0)
    den = nir + red
    valid = (red_dn != 0) & (nir_dn != 0) & (den > 0)
    ndvi = (nir - red) / torch.where(valid, den, torch.ones_like(den))
    return torch.where(valid, ndvi, torch.full_like(ndvi, NODATA)).to(torch.float32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["H"] * s["W"]
    return {"bytes": 8 * n, "flops": 8 * n}
