"""Latitude-weighted ACC per (forecast, channel) plane: weighted inner products, then acc = ap / sqrt(aa * pp)."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40


@triton.jit
def _weighted_inner(x, y, clim, weight, out, n_planes, C, H, W,
                    NPROG: tl.constexpr, BLOCK_H: tl.constexpr, BLOCK_W: tl.constexpr):
    pid = tl.program_id(0)
    rows = tl.arange(0, BLOCK_H)
    cols = tl.arange(0, BLOCK_W)
    plane_size = H * W
    for plane in range(pid, n_planes, NPROG):
        field_base = plane * plane_size
        clim_base = (plane % C) * plane_size
        s_xy = tl.zeros([BLOCK_H, BLOCK_W], dtype=tl.float32)
        for h0 in range(0, H, BLOCK_H):
            h = h0 + rows
            w_lat = tl.load(weight + h, mask=h < H, other=0.0)[:, None]
            for w0 in range(0, W, BLOCK_W):
                w = w0 + cols
                mask = (h[:, None] < H) & (w[None, :] < W)
                offs = h[:, None] * W + w[None, :]
                cl = tl.load(clim + clim_base + offs, mask=mask, other=0.0)
                xa = tl.load(x + field_base + offs, mask=mask, other=0.0) - cl
                ya = tl.load(y + field_base + offs, mask=mask, other=0.0) - cl
                s_xy += w_lat * xa * ya
        tl.store(out + plane, tl.sum(tl.sum(s_xy, axis=1), axis=0))


@triton.jit
def _acc_from_sums(s_ap, s_aa, s_pp, out, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    ap = tl.load(s_ap + offs, mask=mask, other=0.0)
    aa = tl.load(s_aa + offs, mask=mask, other=1.0)
    pp = tl.load(s_pp + offs, mask=mask, other=1.0)
    tl.store(out + offs, ap / tl.sqrt(aa * pp), mask=mask)


def run(pred: torch.Tensor, target: torch.Tensor, clim: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    B, C, H, W = pred.shape
    n_planes = B * C
    sums = torch.empty((3, n_planes), device=pred.device, dtype=torch.float32)
    acc = torch.empty((B, C), device=pred.device, dtype=torch.float32)
    nprog = min(n_planes, NUM_VECTOR_CORES)
    tiles = {"NPROG": nprog, "BLOCK_H": 4, "BLOCK_W": 512}
    _weighted_inner[(nprog,)](pred, target, clim, weight, sums[0], n_planes, C, H, W, **tiles)
    _weighted_inner[(nprog,)](pred, pred, clim, weight, sums[1], n_planes, C, H, W, **tiles)
    _weighted_inner[(nprog,)](target, target, clim, weight, sums[2], n_planes, C, H, W, **tiles)
    _acc_from_sums[(1,)](sums[0], sums[1], sums[2], acc, n_planes, BLOCK=triton.next_power_of_2(n_planes))
    return acc
