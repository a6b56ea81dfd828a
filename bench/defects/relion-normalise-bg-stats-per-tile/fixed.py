"""RELION normalise(): (I - mean_bg) / stddev_bg per particle, background = pixels outside bg_radius."""
import torch
import triton
import triton.language as tl

BY = 4


@triton.jit
def _bg_stats(imgs, stats, box, bg_r2, BY: tl.constexpr, BW: tl.constexpr):
    n = tl.program_id(0)
    base = imgs + n * box * box
    j = tl.arange(0, BW)
    col_ok = j < box
    x = (j - box // 2).to(tl.float32)
    s1 = tl.zeros([BY, BW], dtype=tl.float32)
    s2 = tl.zeros([BY, BW], dtype=tl.float32)
    cnt = tl.zeros([BY, BW], dtype=tl.float32)
    for r0 in range(0, box, BY):
        i = r0 + tl.arange(0, BY)
        y = (i - box // 2).to(tl.float32)
        ok = (i[:, None] < box) & col_ok[None, :]
        v = tl.load(base + i[:, None] * box + j[None, :], mask=ok, other=0.0)
        bg = ok & (x[None, :] * x[None, :] + y[:, None] * y[:, None] > bg_r2)
        v = tl.where(bg, v, 0.0)
        s1 += v
        s2 += v * v
        cnt += bg.to(tl.float32)
    n_bg = tl.sum(tl.sum(cnt, axis=1), axis=0)
    mean = tl.sum(tl.sum(s1, axis=1), axis=0) / n_bg
    var = tl.sum(tl.sum(s2, axis=1), axis=0) / n_bg - mean * mean
    tl.store(stats + 2 * n, mean)
    tl.store(stats + 2 * n + 1, 1.0 / tl.sqrt(var))


@triton.jit
def _normalise(imgs, stats, out, box, BY: tl.constexpr, BW: tl.constexpr):
    n = tl.program_id(1)
    mean = tl.load(stats + 2 * n)
    inv_std = tl.load(stats + 2 * n + 1)
    i = tl.program_id(0) * BY + tl.arange(0, BY)
    j = tl.arange(0, BW)
    ok = (i[:, None] < box) & (j[None, :] < box)
    offs = n * box * box + i[:, None] * box + j[None, :]
    v = tl.load(imgs + offs, mask=ok, other=0.0)
    tl.store(out + offs, (v - mean) * inv_std, mask=ok)


def run(imgs: torch.Tensor, bg_radius: float) -> torch.Tensor:
    n, box, _ = imgs.shape
    bw = triton.next_power_of_2(box)
    out = torch.empty_like(imgs)
    stats = torch.empty((n, 2), device=imgs.device, dtype=torch.float32)
    _bg_stats[(n,)](imgs, stats, box, bg_radius * bg_radius, BY=BY, BW=bw, num_warps=4)
    _normalise[(triton.cdiv(box, BY), n)](imgs, stats, out, box, BY=BY, BW=bw, num_warps=4)
    return out
