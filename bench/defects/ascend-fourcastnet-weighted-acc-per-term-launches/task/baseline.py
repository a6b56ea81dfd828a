"""Latitude-weighted ACC per (forecast, channel) plane: one pass over pred, target and clim."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40


@triton.jit
def _weighted_acc(pred, target, clim, weight, out, n_planes, C, H, W,
                  NPROG: tl.constexpr, BLOCK_H: tl.constexpr, BLOCK_W: tl.constexpr):
    pid = tl.program_id(0)
    rows = tl.arange(0, BLOCK_H)
    cols = tl.arange(0, BLOCK_W)
    plane_size = H * W
    for plane in range(pid, n_planes, NPROG):
        field_base = plane * plane_size
        clim_base = (plane % C) * plane_size
        s_ap = tl.zeros([BLOCK_H, BLOCK_W], dtype=tl.float32)
        s_aa = tl.zeros([BLOCK_H, BLOCK_W], dtype=tl.float32)
        s_pp = tl.zeros([BLOCK_H, BLOCK_W], dtype=tl.float32)
        for h0 in range(0, H, BLOCK_H):
            h = h0 + rows
            w_lat = tl.load(weight + h, mask=h < H, other=0.0)[:, None]
            for w0 in range(0, W, BLOCK_W):
                w = w0 + cols
                mask = (h[:, None] < H) & (w[None, :] < W)
                offs = h[:, None] * W + w[None, :]
                cl = tl.load(clim + clim_base + offs, mask=mask, other=0.0)
                a = tl.load(pred + field_base + offs, mask=mask, other=0.0) - cl
                p = tl.load(target + field_base + offs, mask=mask, other=0.0) - cl
                wa = w_lat * a
                s_ap += wa * p
                s_aa += wa * a
                s_pp += w_lat * p * p
        ap = tl.sum(tl.sum(s_ap, axis=1), axis=0)
        aa = tl.sum(tl.sum(s_aa, axis=1), axis=0)
        pp = tl.sum(tl.sum(s_pp, axis=1), axis=0)
        tl.store(out + plane, ap / tl.sqrt(aa * pp))


def run(pred: torch.Tensor, target: torch.Tensor, clim: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    B, C, H, W = pred.shape
    n_planes = B * C
    acc = torch.empty((B, C), device=pred.device, dtype=torch.float32)
    nprog = min(n_planes, NUM_VECTOR_CORES)
    _weighted_acc[(nprog,)](pred, target, clim, weight, acc, n_planes, C, H, W,
                            NPROG=nprog, BLOCK_H=4, BLOCK_W=512)
    return acc
