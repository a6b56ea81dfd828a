"""Open-Unmix EM post-filter, M-step: source PSDs v and per-window spatial covariances R."""
import torch
import triton
import triton.language as tl

BLOCK_T = 16
BLOCK_F = 32
BLOCK_WF = 128


@triton.jit
def _psd_covariance(y, v, acc, n_frames, n_bins,
                    J: tl.constexpr, BLOCK_T: tl.constexpr, BLOCK_F: tl.constexpr):
    w = tl.program_id(0)
    t = tl.program_id(1) * BLOCK_T + tl.arange(0, BLOCK_T)
    f = tl.program_id(2) * BLOCK_F + tl.arange(0, BLOCK_F)
    src = tl.arange(0, J)
    ok = (t < n_frames)[:, None, None] & (f < n_bins)[None, :, None]
    tf = (w * n_frames + t)[:, None, None] * n_bins + f[None, :, None]
    yb = y + tf * (4 * J) + src[None, None, :]
    y0r = tl.load(yb + 0 * J, mask=ok, other=0.0)
    y0i = tl.load(yb + 1 * J, mask=ok, other=0.0)
    y1r = tl.load(yb + 2 * J, mask=ok, other=0.0)
    y1i = tl.load(yb + 3 * J, mask=ok, other=0.0)
    p0 = y0r * y0r + y0i * y0i
    p1 = y1r * y1r + y1i * y1i
    tl.store(v + tf * J + src[None, None, :], 0.5 * (p0 + p1), mask=ok)
    c01r = y0r * y1r + y0i * y1i
    c01i = y0i * y1r - y0r * y1i
    # accumulator [W, F, 4, J]: sum |y0|^2, sum |y1|^2, sum y0 conj(y1) (re, im)
    ab = acc + ((w * n_bins + f) * (4 * J))[:, None] + src[None, :]
    fok = (f < n_bins)[:, None]
    tl.atomic_add(ab + 0 * J, tl.sum(p0, axis=0), mask=fok)
    tl.atomic_add(ab + 1 * J, tl.sum(p1, axis=0), mask=fok)
    tl.atomic_add(ab + 2 * J, tl.sum(c01r, axis=0), mask=fok)
    tl.atomic_add(ab + 3 * J, tl.sum(c01i, axis=0), mask=fok)


@triton.jit
def _finish_covariance(acc, R, n_wf, eps, J: tl.constexpr, BLOCK_WF: tl.constexpr):
    wf = tl.program_id(0) * BLOCK_WF + tl.arange(0, BLOCK_WF)
    src = tl.arange(0, J)
    ok = (wf < n_wf)[:, None]
    ab = acc + (wf * (4 * J))[:, None] + src[None, :]
    s0 = tl.load(ab + 0 * J, mask=ok, other=0.0)
    s1 = tl.load(ab + 1 * J, mask=ok, other=0.0)
    cr = tl.load(ab + 2 * J, mask=ok, other=0.0)
    ci = tl.load(ab + 3 * J, mask=ok, other=0.0)
    inv_w = 1.0 / (eps + 0.5 * (s0 + s1))          # eps + sum_t v
    zero = tl.zeros_like(s0)
    rb = R + (wf * (8 * J))[:, None] + src[None, :]
    tl.store(rb + 0 * J, s0 * inv_w, mask=ok)      # R00
    tl.store(rb + 1 * J, zero, mask=ok)
    tl.store(rb + 2 * J, cr * inv_w, mask=ok)      # R01 = sum y0 conj(y1)
    tl.store(rb + 3 * J, ci * inv_w, mask=ok)
    tl.store(rb + 4 * J, cr * inv_w, mask=ok)      # R10 = conj(R01)
    tl.store(rb + 5 * J, -ci * inv_w, mask=ok)
    tl.store(rb + 6 * J, s1 * inv_w, mask=ok)      # R11
    tl.store(rb + 7 * J, zero, mask=ok)


def run(y: torch.Tensor, eps: float) -> tuple:
    n_win, n_frames, n_bins, _, _, n_src = y.shape
    v = torch.empty((n_win, n_frames, n_bins, n_src), device=y.device, dtype=y.dtype)
    R = torch.empty((n_win, n_bins, 2, 2, 2, n_src), device=y.device, dtype=y.dtype)
    acc = torch.zeros((n_win, n_bins, 4, n_src), device=y.device, dtype=torch.float32)
    grid = (n_win, triton.cdiv(n_frames, BLOCK_T), triton.cdiv(n_bins, BLOCK_F))
    _psd_covariance[grid](y, v, acc, n_frames, n_bins,
                          J=n_src, BLOCK_T=BLOCK_T, BLOCK_F=BLOCK_F, num_warps=4)
    n_wf = n_win * n_bins
    _finish_covariance[(triton.cdiv(n_wf, BLOCK_WF),)](acc, R, n_wf, eps,
                                                        J=n_src, BLOCK_WF=BLOCK_WF, num_warps=4)
    return v, R
