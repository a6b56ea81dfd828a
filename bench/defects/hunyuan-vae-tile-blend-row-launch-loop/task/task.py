"""Vertical seam blend of VAE tiled decoding (diffusers AutoencoderKLHunyuanVideo.blend_v): the first E rows of a
decoded tile are cross-faded with the last E rows of the tile above,
out[..., y, :] = above[..., H_above - E + y, :] * (1 - y / E) + tile[..., y, :] * (y / E), y = 0..E-1.
Output: the blended band [B, C, T, E, W] in the tiles' dtype."""
import torch

META = {
    "name": "vae_tile_blend_v",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 2e-3, "rtol": 2e-3}},
    "sizes": {
        "small": {"B": 1, "C": 3, "T": 5, "H": 24, "W": 32, "E": 8},
        "ragged": {"B": 2, "C": 3, "T": 3, "H": 21, "W": 37, "E": 7},
        "large": {"B": 1, "C": 3, "T": 17, "H": 256, "W": 256, "E": 64},
    },
    "baseline_notes": "One launch over a (B*C*T*E, ceil(W/256)) grid: each program derives its plane and band row "
                      "from its id, computes the row's fade weight y/E in registers and blends one 256-wide row "
                      "segment; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """above, tile [B, C, T, H, W] (decoded pixels in [-1, 1], the tile's top rows close to the above tile's
    bottom rows, as overlapping tiles are) and the blend extent E."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    shape = (s["B"], s["C"], s["T"], s["H"], s["W"])
    above = torch.rand(shape, generator=g) * 2.0 - 1.0
    tile = torch.rand(shape, generator=g) * 2.0 - 1.0
    seam = above[..., -s["E"]:, :] + 0.1 * torch.randn(shape[:3] + (s["E"], s["W"]), generator=g)
    tile[..., : s["E"], :] = seam.clamp(-1.0, 1.0)
    return above.to(dt).to(device), tile.to(dt).to(device), s["E"]


def reference(above: torch.Tensor, tile: torch.Tensor, extent: int) -> torch.Tensor:
    e = min(above.shape[-2], tile.shape[-2], extent)
    w = (torch.arange(e, device=tile.device, dtype=torch.float64) / e)[:, None]
    a = above[..., above.shape[-2] - e:, :].double()
    b = tile[..., :e, :].double()
    return (a * (1.0 - w) + b * w).to(tile.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    n = s["B"] * s["C"] * s["T"] * s["E"] * s["W"]
    return {"bytes": 3 * n * item, "flops": 3 * n}
