"""Semi-supervised hydrometeor classification with entropy (Py-ART hydroclass_semisupervised)."""
import math

import torch
import triton
import triton.language as tl

BLOCK = 128
FILL = -9999.0
LOG10E = tl.constexpr(0.4342944819032518)


@triton.jit
def _standardize(x, mx, mn):
    s = 2.0 * (x - mn) / (mx - mn) - 1.0
    s = tl.where(x < mn, -1.0, s)
    return tl.where(x > mx, 1.0, s)


@triton.jit
def _hydroclass(zh, zdr, kdp, rhohv, temp, centers, t_vals, weights, hydro, entropy,
                n, relh_scale, inv_log_nclasses, fill,
                N_CLASSES: tl.constexpr, CLASS_LANES: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inside = offs < n
    z = tl.load(zh + offs, mask=inside, other=fill)
    masked = z == fill

    # standardize to [-1, 1] (pyart echo_class._standardize)
    x0 = _standardize(z, 60.0, -10.0)
    x1 = _standardize(tl.load(zdr + offs, mask=inside, other=0.0), 5.0, -1.5)
    k = tl.maximum(tl.load(kdp + offs, mask=inside, other=0.0), -0.5)
    x2 = _standardize(10.0 * LOG10E * tl.log(k + 0.6), 7.0, -10.0)
    r = tl.minimum(tl.load(rhohv + offs, mask=inside, other=0.0), 1.0)
    x3 = _standardize(10.0 * LOG10E * tl.log(1.0 - r), -5.23, -50.0)
    relh = tl.load(temp + offs, mask=inside, other=0.0) * relh_scale
    x4 = 2.0 / (1.0 + tl.exp(-0.005 * relh)) - 1.0

    # weighted distance to every centroid: [CLASS_LANES, BLOCK] (pyart's (nclasses, nbins) dist)
    cl = tl.arange(0, CLASS_LANES)
    real = cl < N_CLASSES
    c0 = tl.load(centers + cl * 5 + 0, mask=real, other=0.0)
    c1 = tl.load(centers + cl * 5 + 1, mask=real, other=0.0)
    c2 = tl.load(centers + cl * 5 + 2, mask=real, other=0.0)
    c3 = tl.load(centers + cl * 5 + 3, mask=real, other=0.0)
    c4 = tl.load(centers + cl * 5 + 4, mask=real, other=0.0)
    w0 = tl.load(weights + 0).to(tl.float32)
    w1 = tl.load(weights + 1).to(tl.float32)
    w2 = tl.load(weights + 2).to(tl.float32)
    w3 = tl.load(weights + 3).to(tl.float32)
    w4 = tl.load(weights + 4).to(tl.float32)
    d0 = c0[:, None] - x0[None, :]
    d1 = c1[:, None] - x1[None, :]
    d2 = c2[:, None] - x2[None, :]
    d3 = c3[:, None] - x3[None, :]
    d4 = c4[:, None] - x4[None, :]
    dist = tl.sqrt(w0 * d0 * d0 + w1 * d1 * d1 + w2 * d2 * d2 + w3 * d3 * d3 + w4 * d4 * d4)
    dist = tl.where(real[:, None], dist, float("inf"))

    best = tl.argmin(dist, axis=0)
    t = tl.load(t_vals + best, mask=inside, other=1.0)

    # transformed distances (proportions) and their entropy
    p = tl.exp(-t[None, :] * dist)
    p = p / tl.sum(p, axis=0)[None, :]
    ent = -tl.sum(tl.where(p > 0.0, p * tl.log(p), 0.0), axis=0) * inv_log_nclasses

    tl.store(hydro + offs, tl.where(masked, 0, best + 1).to(tl.uint8), mask=inside)
    tl.store(entropy + offs, tl.where(masked, fill, ent.to(tl.float32)), mask=inside)


def run(zh, zdr, kdp, rhohv, temp, centers, t_vals, weights, lapse_rate):
    n = zh.numel()
    n_classes = centers.shape[0]
    hydro = torch.empty(zh.shape, dtype=torch.uint8, device=zh.device)
    entropy = torch.empty_like(zh)
    _hydroclass[(triton.cdiv(n, BLOCK),)](zh, zdr, kdp, rhohv, temp, centers, t_vals, weights, hydro, entropy,
                                          n, 1000.0 / lapse_rate, 1.0 / math.log(n_classes), FILL,
                                          N_CLASSES=n_classes, CLASS_LANES=triton.next_power_of_2(n_classes),
                                          BLOCK=BLOCK, num_warps=4)
    return hydro, entropy
