"""Mattes mutual information: Parzen-window joint histogram of fixed/moving samples, then the MI value."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
BLOCK = 128


@triton.jit
def _cubic_bspline(x):
    # beta3(x) = ((2 - |x|)_+^3 - 4 (1 - |x|)_+^3) / 6, ITK's CubicBSplineKernelFunction without branches
    a = tl.abs(x)
    t = tl.maximum(2.0 - a, 0.0)
    u = tl.maximum(1.0 - a, 0.0)
    return (t * t * t - 4.0 * (u * u * u)) * (1.0 / 6.0)


@triton.jit
def _joint_histogram(fixed, moving, hist, n, f_scale, f_shift, m_scale, m_shift,
                     BINS: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    bins = tl.arange(0, BINS)
    bin_f = bins.to(tl.float32)
    acc = tl.zeros([BINS, BINS], dtype=tl.float32)
    for blk in range(pid, tl.cdiv(n, BLOCK), nprog):
        s = blk * BLOCK + tl.arange(0, BLOCK)
        ok = s < n
        f = tl.load(fixed + s, mask=ok, other=0.0)
        # padded samples get an infinite Parzen term: zero moving weight in every bin
        m = tl.load(moving + s, mask=ok, other=float("inf"))
        f_term = f * f_scale - f_shift
        m_term = m * m_scale - m_shift
        fi = tl.minimum(tl.maximum(tl.floor(f_term), 2.0), BINS - 3.0)
        # the tile's joint histogram as one product: one-hot fixed bins [BINS, BLOCK] times the
        # moving B-spline weights of every bin [BLOCK, BINS] (zero outside the four touched bins)
        onehot = tl.where(bin_f[:, None] == fi[None, :], 1.0, 0.0)
        w = _cubic_bspline(bin_f[None, :] - m_term[:, None])
        acc += tl.dot(onehot, w)
    idx = bins[:, None] * BINS + bins[None, :]
    tl.store(hist + pid * BINS * BINS + idx, acc)


@triton.jit
def _mutual_information(partials, n_partials, pdf, value, BINS: tl.constexpr):
    i = tl.arange(0, BINS)
    idx = i[:, None] * BINS + i[None, :]
    joint = tl.zeros([BINS, BINS], dtype=tl.float32)
    for p in range(0, n_partials):
        joint += tl.load(partials + p * BINS * BINS + idx)
    joint = joint / tl.sum(tl.sum(joint, axis=1), axis=0)
    tl.store(pdf + idx, joint)
    pf = tl.sum(joint, axis=1)
    pm = tl.sum(joint, axis=0)
    ok = (joint > 1e-16) & (pm[None, :] > 1e-16)
    ratio = tl.where(ok, joint, 1.0) / tl.where(ok, pm[None, :], 1.0)
    lpf = tl.log(tl.where(pf > 1e-16, pf, 1.0))
    term = tl.where(ok, joint * (tl.log(ratio) - lpf[:, None]), 0.0)
    mi = tl.sum(tl.sum(term, axis=1), axis=0)
    tl.store(value + i, tl.zeros([BINS], dtype=tl.float32) - mi, mask=i < 1)


def run(fixed, moving, f_min, f_max, m_min, m_max, bins):
    n = fixed.shape[0]
    pad = 2
    f_bin = (f_max - f_min) / (bins - 2 * pad)
    m_bin = (m_max - m_min) / (bins - 2 * pad)
    grid = (min(_VECTOR_CORES, triton.cdiv(n, BLOCK)),)
    hist = torch.empty((grid[0], bins, bins), device=fixed.device, dtype=torch.float32)
    _joint_histogram[grid](fixed, moving, hist, n, 1.0 / f_bin, f_min / f_bin - pad,
                           1.0 / m_bin, m_min / m_bin - pad, BINS=bins, BLOCK=BLOCK)
    pdf = torch.empty((bins, bins), device=fixed.device, dtype=torch.float32)
    value = torch.empty((1,), device=fixed.device, dtype=torch.float32)
    _mutual_information[(1,)](hist, hist.shape[0], pdf, value, BINS=bins)
    return pdf, value
