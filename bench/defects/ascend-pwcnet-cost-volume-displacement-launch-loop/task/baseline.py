"""PWC-Net cost volume: LeakyReLU(0.1) of the channel-normalised local correlation over a (2 md + 1)^2 window."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _cost_volume_kernel(f1, f2, out, C, H, W, md, inv_c, n_xblk, n_tiles,
                        BC: tl.constexpr, BX: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    HW = H * W
    G = 2 * md + 1
    ch = tl.arange(0, BC)
    cmask = ch < C
    for t in range(pid, n_tiles, nprog):
        row = t // n_xblk
        b = row // H
        y = row % H
        xs = (t % n_xblk) * BX + tl.arange(0, BX)
        xmask = xs < W
        fbase = b * C * HW + ch[:, None] * HW
        a = tl.load(f1 + fbase + y * W + xs[None, :], mask=cmask[:, None] & xmask[None, :], other=0.0)
        for dy in range(-md, md + 1):
            for dx in range(-md, md + 1):
                k = (dy + md) * G + (dx + md)
                y2 = y + dy
                x2 = xs + dx
                m2 = cmask[:, None] & ((x2 >= 0) & (x2 < W))[None, :] & ((y2 >= 0) & (y2 < H))
                v = tl.load(f2 + fbase + y2 * W + x2[None, :], mask=m2, other=0.0)
                s = tl.sum(a * v, axis=0) * inv_c
                s = tl.maximum(s, 0.1 * s)
                tl.store(out + (b * G * G + k) * HW + y * W + xs, s, mask=xmask)


def run(f1: torch.Tensor, f2: torch.Tensor, md: int) -> torch.Tensor:
    B, C, H, W = f1.shape
    G = 2 * md + 1
    out = torch.empty((B, G * G, H, W), device=f1.device, dtype=f1.dtype)
    BC = triton.next_power_of_2(C)
    BX = min(128, triton.next_power_of_2(W))
    n_xblk = triton.cdiv(W, BX)
    n_tiles = B * H * n_xblk
    grid = (min(_VECTOR_CORES, n_tiles),)
    _cost_volume_kernel[grid](f1, f2, out, C, H, W, md, 1.0 / C, n_xblk, n_tiles, BC=BC, BX=BX)
    return out
