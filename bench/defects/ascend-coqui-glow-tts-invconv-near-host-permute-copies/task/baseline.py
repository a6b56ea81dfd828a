"""Glow-TTS InvConvNear forward: 4x4 channel mixing over groups of 4 channels, times the frame mask."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _invconv_near_fwd(x, w, mask, z, G, T, n_gb, n_tb, n_tiles,
                      sxb, sxa, sxh, sxg, szb, sza, szh, szg,
                      BG: tl.constexpr, BT: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    w00 = tl.load(w + 0)
    w01 = tl.load(w + 1)
    w02 = tl.load(w + 2)
    w03 = tl.load(w + 3)
    w10 = tl.load(w + 4)
    w11 = tl.load(w + 5)
    w12 = tl.load(w + 6)
    w13 = tl.load(w + 7)
    w20 = tl.load(w + 8)
    w21 = tl.load(w + 9)
    w22 = tl.load(w + 10)
    w23 = tl.load(w + 11)
    w30 = tl.load(w + 12)
    w31 = tl.load(w + 13)
    w32 = tl.load(w + 14)
    w33 = tl.load(w + 15)
    per_b = n_gb * n_tb
    for tile in range(pid, n_tiles, nprog):
        b = tile // per_b
        rem = tile - b * per_b
        gb = rem // n_tb
        tb = rem - gb * n_tb
        gs = gb * BG + tl.arange(0, BG)
        ts = tb * BT + tl.arange(0, BT)
        tmask = ts < T
        m2 = (gs < G)[:, None] & tmask[None, :]
        xo = x + b * sxb + gs[:, None] * sxg + ts[None, :]
        x0 = tl.load(xo, mask=m2, other=0.0)                    # split k = 0 (a = 0, h = 0)
        x1 = tl.load(xo + sxh, mask=m2, other=0.0)              # k = 1 (a = 0, h = 1)
        x2 = tl.load(xo + sxa, mask=m2, other=0.0)              # k = 2 (a = 1, h = 0)
        x3 = tl.load(xo + sxa + sxh, mask=m2, other=0.0)        # k = 3 (a = 1, h = 1)
        fm = tl.load(mask + b * T + ts, mask=tmask, other=0.0)[None, :]
        z0 = (w00 * x0 + w01 * x1 + w02 * x2 + w03 * x3) * fm
        z1 = (w10 * x0 + w11 * x1 + w12 * x2 + w13 * x3) * fm
        z2 = (w20 * x0 + w21 * x1 + w22 * x2 + w23 * x3) * fm
        z3 = (w30 * x0 + w31 * x1 + w32 * x2 + w33 * x3) * fm
        zo = z + b * szb + gs[:, None] * szg + ts[None, :]
        tl.store(zo, z0, mask=m2)
        tl.store(zo + szh, z1, mask=m2)
        tl.store(zo + sza, z2, mask=m2)
        tl.store(zo + sza + szh, z3, mask=m2)


def run(x: torch.Tensor, x_mask: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    b, c, t = x.shape
    g = c // 4
    # [b, c, t] -> [b, 2, 2, c/4, t]: the four splits of every group, as Coqui lays them out for F.conv2d
    # the four splits of every group are read in place through the strides of x.view(b, 2, c/4, 2, t)
    xs = x.view(b, 2, g, 2, t)
    z = torch.empty_like(x)
    zs = z.view(b, 2, g, 2, t)
    BG, BT = 8, 256
    n_gb, n_tb = triton.cdiv(g, BG), triton.cdiv(t, BT)
    n_tiles = b * n_gb * n_tb
    grid = (min(_VECTOR_CORES, n_tiles),)
    _invconv_near_fwd[grid](xs, weight, x_mask, zs, g, t, n_gb, n_tb, n_tiles,
                            xs.stride(0), xs.stride(1), xs.stride(3), xs.stride(2),
                            zs.stride(0), zs.stride(1), zs.stride(3), zs.stride(2),
                            BG=BG, BT=BT)
    return z
