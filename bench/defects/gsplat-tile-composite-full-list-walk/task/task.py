"""Front-to-back alpha compositing of depth-sorted 2-D Gaussians per 16x16 tile (gsplat rasterize_to_pixels forward, 3DGS).

For pixel centre p = (x + 0.5, y + 0.5) and each Gaussian of the pixel's tile in depth order:
sigma = 0.5 (a dx^2 + c dy^2) + b dx dy with d = mean2d - p and conic (a, b, c); alpha =
min(0.999, opacity exp(-sigma)); skipped when sigma < 0 or alpha < 1/255; the pixel stops (without
this Gaussian) once T (1 - alpha) <= 1e-4; else colour += alpha T rgb, T *= 1 - alpha. Outputs the
[H, W, 3] colour and the [H, W] alpha 1 - T.
"""
import torch

TILE = 16

META = {
    "name": "gsplat_rasterize_to_pixels",
    "level": 2,
    "category": "rendering",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-2, "rtol": 1e-3}},
    "sizes": {
        "small": {"N": 60, "W": 32, "H": 32},
        "ragged": {"N": 80, "W": 40, "H": 24},
        "large": {"N": 250_000, "W": 1920, "H": 1080},
    },
    "baseline_notes": "One program per 16x16 tile (256 pixels, 8 warps) walking the tile's depth-sorted "
                      "Gaussians one per step with per-pixel done flags, leaving the walk once every pixel of "
                      "the tile is done; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """means2d [N, 2], conics [N, 3], colors [N, 3], opacities [N], tile_offsets [tiles + 1] int32,
    flatten_ids [M] int32 (each tile's Gaussians sorted by depth), W, H."""
    s = META["sizes"][size]
    N, W, H = s["N"], s["W"], s["H"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    means2d = torch.rand(N, 2, generator=g) * torch.tensor([W + 40.0, H + 40.0]) - 20.0
    scale = torch.exp(torch.randn(N, 2, generator=g) * 0.5 + 2.0) + 0.3
    theta = torch.rand(N, generator=g) * torch.pi
    cs, sn = torch.cos(theta), torch.sin(theta)
    vx, vy = scale[:, 0] ** 2, scale[:, 1] ** 2
    cxx, cyy, cxy = cs * cs * vx + sn * sn * vy, sn * sn * vx + cs * cs * vy, cs * sn * (vx - vy)
    det = cxx * cyy - cxy * cxy
    conics = torch.stack([cyy / det, -cxy / det, cxx / det], dim=1)
    radius = torch.ceil(3.0 * scale.max(dim=1).values)
    colors = torch.rand(N, 3, generator=g)
    opacities = torch.sigmoid(torch.randn(N, generator=g) * 2.0 + 2.0)
    depths = torch.rand(N, generator=g)
    tw, th = (W + TILE - 1) // TILE, (H + TILE - 1) // TILE
    x0 = torch.floor((means2d[:, 0] - radius) / TILE).clamp(0, tw).long()
    x1 = torch.ceil((means2d[:, 0] + radius) / TILE).clamp(0, tw).long()
    y0 = torch.floor((means2d[:, 1] - radius) / TILE).clamp(0, th).long()
    y1 = torch.ceil((means2d[:, 1] + radius) / TILE).clamp(0, th).long()
    wx, counts = x1 - x0, (x1 - x0) * (y1 - y0)
    gid = torch.repeat_interleave(torch.arange(N), counts)
    k = torch.arange(len(gid)) - (torch.cumsum(counts, 0) - counts)[gid]
    tile = (y0[gid] + k // wx[gid]) * tw + x0[gid] + k % wx[gid]
    order = torch.argsort(tile * 2 * N + torch.argsort(torch.argsort(depths))[gid])
    flatten_ids = gid[order].to(torch.int32)
    tile_offsets = torch.zeros(tw * th + 1, dtype=torch.int64)
    tile_offsets[1:] = torch.cumsum(torch.bincount(tile, minlength=tw * th), 0)
    return (means2d.to(dt).to(device), conics.to(dt).to(device), colors.to(dt).to(device),
            opacities.to(dt).to(device), tile_offsets.to(torch.int32).to(device), flatten_ids.to(device), W, H)


def reference(means2d, conics, colors, opacities, tile_offsets, flatten_ids, W, H):
    dev = means2d.device
    tw, th = (W + TILE - 1) // TILE, (H + TILE - 1) // TILE
    offs = tile_offsets.long()
    lens = offs[1:] - offs[:-1]
    i = torch.arange(TILE * TILE, device=dev)
    px = (torch.arange(tw * th, device=dev) % tw)[:, None] * TILE + i % TILE
    py = (torch.arange(tw * th, device=dev) // tw)[:, None] * TILE + i // TILE
    inside = (px < W) & (py < H)
    pxf, pyf = px.float() + 0.5, py.float() + 0.5
    T = torch.ones_like(pxf)
    acc = torch.zeros(tw * th, TILE * TILE, 3, device=dev)
    alive = inside.clone()
    for step in range(int(lens.max().item()) if len(lens) else 0):
        has = step < lens
        gi = flatten_ids.long()[torch.where(has, offs[:-1] + step, 0)]
        dx, dy = means2d[gi, 0][:, None] - pxf, means2d[gi, 1][:, None] - pyf
        sigma = 0.5 * (conics[gi, 0][:, None] * dx * dx + conics[gi, 2][:, None] * dy * dy) \
            + conics[gi, 1][:, None] * dx * dy
        alpha = torch.clamp_max(opacities[gi][:, None] * torch.exp(-sigma), 0.999)
        use = alive & has[:, None] & (sigma >= 0) & (alpha >= 1.0 / 255.0)
        next_T = T * (1.0 - alpha)
        stop = use & (next_T <= 1e-4)
        alive &= ~stop
        use &= ~stop
        acc += torch.where(use, alpha * T, 0.0)[..., None] * colors[gi][:, None, :]
        T = torch.where(use, next_T, T)
    ys, xs = py[inside], px[inside]
    out_c = torch.zeros(H, W, 3, device=dev, dtype=means2d.dtype)
    out_a = torch.zeros(H, W, device=dev, dtype=means2d.dtype)
    out_c[ys, xs] = acc[inside]
    out_a[ys, xs] = (1.0 - T)[inside]
    return out_c, out_a


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    m = 23 * s["N"]  # about 23 tile hits per Gaussian at these scales
    return {"bytes": 16 * s["W"] * s["H"] + 4 * m + 40 * s["N"], "flops": 20 * 256 * m // 4}
