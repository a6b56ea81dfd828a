"""UV texture lookup of rasterized fragments (PyTorch3D TexturesUV.sample_textures, bilinear, align_corners=True,
padding_mode="border").

TexturesUV keeps one texture map per mesh as maps [N, Ht, Wt, C] (channels last, v = 0 at the bottom row). For
every fragment (image n, pixel (y, x), face slot k) with interpolated texture coordinates (u, v), PyTorch3D
flips the map's y axis and calls F.grid_sample on the grid 2 * uv - 1, i.e. samples the map bilinearly at the
continuous texel position
    x = clamp(u * (Wt - 1), 0, Wt - 1),   y = clamp((1 - v) * (Ht - 1), 0, Ht - 1)
of the unflipped map (align_corners=True: u = 0 / 1 are the centres of the first / last texel; border
padding clamps the position). Background fragments carry uv = (0, 0) and are sampled like any other.
Returns texels [N, H, W, K, C] fp32.
"""
import math

import torch
import torch.nn.functional as F

META = {
    "name": "texturesuv_sample",
    "level": 2,
    "category": "rendering",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"N": 2, "TH": 6, "TW": 9, "C": 3, "H": 4, "W": 5, "K": 2},
        "ragged": {"N": 3, "TH": 11, "TW": 7, "C": 3, "H": 5, "W": 7, "K": 3},
        "large": {"N": 8, "TH": 1024, "TW": 1024, "C": 3, "H": 512, "W": 512, "K": 1},
    },
    "baseline_notes": "Grid (blocks of 256 fragments of one image, images); each program loads its fragments' "
                      "uv, computes the clamped texel position, gathers the four [256, C_pow2] texel rows "
                      "straight from the channels-last map (the y flip folded into the row index) and stores "
                      "the bilinear blend; no host-side copies. Default 4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """maps [N, TH, TW, C] in [0, 1] and pixel_uvs [N, H, W, K, 2].

    A batch of N views of one textured mesh (meshes.extend(N): every view has its own copy of the map).
    Each view covers about half of its frame; the visible surface maps onto a rotated, warped patch of
    the atlas (~1.4 texels per pixel at large), slightly overshooting [0, 1] at the seams; background
    fragments and empty face slots carry uv = (0, 0) as interpolate_face_attributes leaves them.
    """
    s = META["sizes"][size]
    n, th, tw, c, h, w, k = s["N"], s["TH"], s["TW"], s["C"], s["H"], s["W"], s["K"]
    gen = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    ty = torch.linspace(0.0, 1.0, th)[:, None, None]
    tx = torch.linspace(0.0, 1.0, tw)[None, :, None]
    base = 0.5 + 0.25 * torch.sin(7.0 * tx + 3.0 * ty + torch.arange(c) * 1.3) * torch.cos(5.0 * ty)
    maps = (base + 0.2 * torch.rand(th, tw, c, generator=gen)).clamp(0.0, 1.0)
    maps = maps.expand(n, th, tw, c).contiguous()
    ys = (torch.arange(h, dtype=torch.float32) + 0.5) / h - 0.5
    xs = (torch.arange(w, dtype=torch.float32) + 0.5) / w - 0.5
    py, px = torch.meshgrid(ys, xs, indexing="ij")
    uvs = torch.zeros(n, h, w, k, 2)
    for b in range(n):
        for slot in range(k):
            ang = float(torch.rand(1, generator=gen)) * 2.0 * math.pi
            cen = 0.35 + 0.3 * torch.rand(2, generator=gen)
            ca, sa = math.cos(ang), math.sin(ang)
            u = cen[0] + 0.65 * (ca * px - sa * py) + 0.02 * torch.sin(9.0 * py)
            v = cen[1] + 0.65 * (sa * px + ca * py) + 0.02 * torch.cos(7.0 * px)
            shrink = 1.0 - 0.3 * slot
            fg = (px / (0.42 * shrink)) ** 2 + (py / (0.38 * shrink)) ** 2 < 1.0
            uv = torch.stack([u, v], -1).clamp(-0.02, 1.02)
            uvs[b, :, :, slot] = torch.where(fg[..., None], uv, torch.zeros_like(uv))
    return maps.to(dt).to(device), uvs.to(dt).to(device)


def reference(maps: torch.Tensor, pixel_uvs: torch.Tensor) -> torch.Tensor:
    n, th, tw, c = maps.shape
    _, h, w, k, _ = pixel_uvs.shape
    tex = torch.flip(maps.double().permute(0, 3, 1, 2), [2])
    grid = pixel_uvs.double().permute(0, 3, 1, 2, 4).reshape(n, k * h, w, 2) * 2.0 - 1.0
    texels = F.grid_sample(tex, grid, mode="bilinear", align_corners=True, padding_mode="border")
    return texels.reshape(n, c, k, h, w).permute(0, 3, 4, 2, 1).contiguous().to(maps.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    frags = s["N"] * s["H"] * s["W"] * s["K"]
    return {"bytes": frags * (8 + 4 * s["C"]) + 4 * s["N"] * s["TH"] * s["TW"] * s["C"] // 4,
            "flops": frags * (12 + 9 * s["C"])}
