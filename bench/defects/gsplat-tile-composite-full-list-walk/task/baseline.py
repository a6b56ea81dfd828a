"""Alpha compositing of depth-sorted Gaussians, one program per 16x16 tile (gsplat rasterize_to_pixels forward)."""
import torch
import triton
import triton.language as tl


@triton.jit
def _composite_tile(means2d, conics, colors, opacities, tile_offsets, flatten_ids,
                    out_rgb, out_alpha, W, H, tiles_x):
    tile = tl.program_id(0)
    i = tl.arange(0, 256)
    px = (tile % tiles_x) * 16 + i % 16
    py = (tile // tiles_x) * 16 + i // 16
    inside = (px < W) & (py < H)
    pxf = px.to(tl.float32) + 0.5
    pyf = py.to(tl.float32) + 0.5
    T = tl.full((256,), 1.0, tl.float32)
    acc_r = tl.zeros((256,), tl.float32)
    acc_g = tl.zeros((256,), tl.float32)
    acc_b = tl.zeros((256,), tl.float32)
    alive = inside
    j = tl.load(tile_offsets + tile)
    end = tl.load(tile_offsets + tile + 1)
    n_alive = tl.sum(alive.to(tl.int32), axis=0)
    while (j < end) & (n_alive > 0):
        g = tl.load(flatten_ids + j)
        dx = tl.load(means2d + g * 2) - pxf
        dy = tl.load(means2d + g * 2 + 1) - pyf
        sigma = 0.5 * (tl.load(conics + g * 3) * dx * dx + tl.load(conics + g * 3 + 2) * dy * dy) \
            + tl.load(conics + g * 3 + 1) * dx * dy
        alpha = tl.minimum(tl.load(opacities + g) * tl.exp(-sigma), 0.999)
        use = alive & (sigma >= 0.0) & (alpha >= 1.0 / 255.0)
        next_T = T * (1.0 - alpha)
        stop = use & (next_T <= 1e-4)
        alive = alive & ~stop
        use = use & ~stop
        w = tl.where(use, alpha * T, 0.0)
        acc_r += w * tl.load(colors + g * 3)
        acc_g += w * tl.load(colors + g * 3 + 1)
        acc_b += w * tl.load(colors + g * 3 + 2)
        T = tl.where(use, next_T, T)
        n_alive = tl.sum(alive.to(tl.int32), axis=0)
        j += 1
    pix = py * W + px
    tl.store(out_rgb + pix * 3, acc_r, mask=inside)
    tl.store(out_rgb + pix * 3 + 1, acc_g, mask=inside)
    tl.store(out_rgb + pix * 3 + 2, acc_b, mask=inside)
    tl.store(out_alpha + pix, 1.0 - T, mask=inside)


def run(means2d, conics, colors, opacities, tile_offsets, flatten_ids, W: int, H: int):
    tiles_x, tiles_y = triton.cdiv(W, 16), triton.cdiv(H, 16)
    out_rgb = torch.empty((H, W, 3), device=means2d.device, dtype=torch.float32)
    out_alpha = torch.empty((H, W), device=means2d.device, dtype=torch.float32)
    _composite_tile[(tiles_x * tiles_y,)](means2d, conics, colors, opacities, tile_offsets, flatten_ids,
                                          out_rgb, out_alpha, W, H, tiles_x, num_warps=8)
    return out_rgb, out_alpha
