"""Wan 2.1 unpatchify (WanModel.unpatchify): the head's per-token outputs [B, F*H*W, pt*ph*pw*C] (patch (1, 2, 2),
C = 16 latent channels) rearranged as einsum('fhwpqrc->cfphqwr') into video latents [B, C, F, 2H, 2W]."""
import torch

META = {
    "name": "wan_unpatchify",
    "level": 2,
    "category": "layout",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"B": 1, "F": 2, "H": 3, "W": 5, "C": 16},
        "ragged": {"B": 2, "F": 3, "H": 7, "W": 11, "C": 16},
        "large": {"B": 1, "F": 21, "H": 45, "W": 80, "C": 16},
    },
    "baseline_notes": "One program per vector core looping over token rows (b, f, h): each loads the row's W tokens "
                      "x 64 values as one contiguous [BLOCK_W, 64] tile, reshapes and permutes it on chip to "
                      "[C, ph, BLOCK_W, pw] and stores 32 contiguous output-row runs.",
    "deterministic": True,
}

PATCH = (1, 2, 2)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [B, F*H*W, 4*C] (fp32 head output) and the latent grid F, H, W and channel count C."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    pt, ph, pw = PATCH
    x = torch.randn(s["B"], s["F"] * s["H"] * s["W"], pt * ph * pw * s["C"], generator=g)
    return x.to(dt).to(device), s["F"], s["H"], s["W"], s["C"]


def reference(x: torch.Tensor, f: int, h: int, w: int, c: int) -> torch.Tensor:
    pt, ph, pw = PATCH
    u = x.double().view(x.shape[0], f, h, w, pt, ph, pw, c)
    u = torch.einsum("bfhwpqrc->bcfphqwr", u)
    return u.reshape(x.shape[0], c, f * pt, h * ph, w * pw).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["F"] * s["H"] * s["W"] * PATCH[0] * PATCH[1] * PATCH[2] * s["C"]
    return {"bytes": 2 * 4 * n, "flops": 0}
