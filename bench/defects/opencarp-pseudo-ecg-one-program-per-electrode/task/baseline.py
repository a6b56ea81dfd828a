"""Pseudo-ECG: phi_e recovery at the nine 12-lead electrodes, then the 12 leads."""
import math

import torch
import triton
import triton.language as tl

BLOCK = 1024
N_ELECTRODES = 9
SPLIT = 128


@triton.jit
def _phie_recovery(im, pts, elec, partial, n, chunk, BLOCK: tl.constexpr, SPLIT: tl.constexpr):
    e = tl.program_id(0)
    part = tl.program_id(1)
    ex = tl.load(elec + 3 * e)
    ey = tl.load(elec + 3 * e + 1)
    ez = tl.load(elec + 3 * e + 2)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    lo = part * chunk
    hi = tl.minimum(lo + chunk, n)
    for start in range(lo, hi, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        ok = offs < hi
        src = tl.load(im + offs, mask=ok, other=0.0)
        dx = tl.load(pts + offs, mask=ok, other=0.0) - ex
        dy = tl.load(pts + n + offs, mask=ok, other=0.0) - ey
        dz = tl.load(pts + 2 * n + offs, mask=ok, other=0.0) - ez
        acc += src * tl.rsqrt(dx * dx + dy * dy + dz * dz)
    tl.store(partial + e * SPLIT + part, tl.sum(acc, axis=0))


@triton.jit
def _twelve_leads(partial, phi, leads, scale, E_POW2: tl.constexpr, SPLIT: tl.constexpr):
    k = tl.arange(0, E_POW2)
    s = tl.arange(0, SPLIT)
    parts = tl.load(partial + k[:, None] * SPLIT + s[None, :], mask=(k < 9)[:, None], other=0.0)
    p = tl.sum(parts, axis=1) * scale
    tl.store(phi + k, p, mask=k < 9)
    ra = tl.sum(tl.where(k == 0, p, 0.0), axis=0)
    la = tl.sum(tl.where(k == 1, p, 0.0), axis=0)
    ll = tl.sum(tl.where(k == 2, p, 0.0), axis=0)
    wct = (ra + la + ll) / 3.0
    tl.store(leads + 0, la - ra)
    tl.store(leads + 1, ll - ra)
    tl.store(leads + 2, ll - la)
    tl.store(leads + 3, ra - 0.5 * (la + ll))
    tl.store(leads + 4, la - 0.5 * (ra + ll))
    tl.store(leads + 5, ll - 0.5 * (ra + la))
    tl.store(leads + 3 + k, p - wct, mask=(k >= 3) & (k < 9))  # V1..V6 against Wilson's terminal


def run(im: torch.Tensor, pts: torch.Tensor, elec: torch.Tensor, sigma_b: float) -> tuple:
    n = im.numel()
    phi = torch.empty(N_ELECTRODES, device=im.device, dtype=im.dtype)
    leads = torch.empty(12, device=im.device, dtype=im.dtype)
    partial = torch.empty(N_ELECTRODES * SPLIT, device=im.device, dtype=torch.float32)
    scale = 1.0 / (4.0 * math.pi * sigma_b)
    chunk = triton.cdiv(triton.cdiv(n, SPLIT), BLOCK) * BLOCK
    _phie_recovery[(N_ELECTRODES, SPLIT)](im, pts, elec, partial, n, chunk, BLOCK=BLOCK, SPLIT=SPLIT,
                                          num_warps=4)
    _twelve_leads[(1,)](partial, phi, leads, scale, E_POW2=16, SPLIT=SPLIT, num_warps=1)
    return phi, leads
