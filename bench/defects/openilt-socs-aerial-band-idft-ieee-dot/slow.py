"""SOCS aerial image I = sum_k scale_k |Bx (spec * H_k) By^T|^2 as band-limited inverse DFTs (OpenILT _computeImage)."""
import math

import torch
import triton
import triton.language as tl

P = 35
P_PAD = 64
BN_A = 64
BM = 128
BN = 64


@triton.jit
def _band_rows(spec_ptr, ker_ptr, t_ptr, W, two_pi_over_w,
               P: tl.constexpr, P_PAD: tl.constexpr, BN: tl.constexpr):
    """T_k[i, y] = sum_j (spec * H_k)[i, j] exp(2 pi 1j (j - P//2) y / W), rows i >= P left zero."""
    k = tl.program_id(0)
    y = tl.program_id(1) * BN + tl.arange(0, BN)
    i = tl.arange(0, P_PAD)
    j = tl.arange(0, P_PAD)
    ok = (i[:, None] < P) & (j[None, :] < P)
    band = (i[:, None] * P + j[None, :]) * 2
    s_re = tl.load(spec_ptr + band, mask=ok, other=0.0)
    s_im = tl.load(spec_ptr + band + 1, mask=ok, other=0.0)
    h_re = tl.load(ker_ptr + k * P * P * 2 + band, mask=ok, other=0.0)
    h_im = tl.load(ker_ptr + k * P * P * 2 + band + 1, mask=ok, other=0.0)
    g_re = s_re * h_re - s_im * h_im
    g_im = s_re * h_im + s_im * h_re
    # column basis exp(2 pi 1j v y / W), the phase v*y reduced mod W in integers first
    r = ((j[:, None] - P // 2) * y[None, :]) % W
    r = tl.where(r > W // 2, r - W, r)
    r = tl.where(r < -(W // 2), r + W, r)
    theta = r.to(tl.float32) * two_pi_over_w
    c = tl.cos(theta)
    s = tl.sin(theta)
    t_re = tl.dot(g_re, c, input_precision="ieee") - tl.dot(g_im, s, input_precision="ieee")
    t_im = tl.dot(g_re, s, input_precision="ieee") + tl.dot(g_im, c, input_precision="ieee")
    out = t_ptr + k * 2 * P_PAD * W + i[:, None] * W + y[None, :]
    keep = y[None, :] < W
    tl.store(out, t_re, mask=keep)
    tl.store(out + P_PAD * W, t_im, mask=keep)


@triton.jit
def _socs_image(t_ptr, scale_ptr, img_ptr, H, W, K, two_pi_over_h,
                P: tl.constexpr, P_PAD: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    """I[x, y] = sum_k scale_k |sum_i exp(2 pi 1j (i - P//2) x / H) T_k[i, y]|^2 for one [BM, BN] tile."""
    x = tl.program_id(0) * BM + tl.arange(0, BM)
    y = tl.program_id(1) * BN + tl.arange(0, BN)
    i = tl.arange(0, P_PAD)
    r = (x[:, None] * (i[None, :] - P // 2)) % H
    r = tl.where(r > H // 2, r - H, r)
    r = tl.where(r < -(H // 2), r + H, r)
    theta = r.to(tl.float32) * two_pi_over_h
    a_c = tl.cos(theta)
    a_s = tl.sin(theta)
    a_sn = -a_s
    col_ok = y[None, :] < W
    t_tile = i[:, None] * W + y[None, :]
    acc = tl.zeros([BM, BN], dtype=tl.float32)
    for k in range(K):
        base = t_ptr + k * 2 * P_PAD * W
        t_re = tl.load(base + t_tile, mask=col_ok, other=0.0)
        t_im = tl.load(base + P_PAD * W + t_tile, mask=col_ok, other=0.0)
        e_re = tl.dot(a_c, t_re, tl.dot(a_sn, t_im, input_precision="ieee"), input_precision="ieee")
        e_im = tl.dot(a_c, t_im, tl.dot(a_s, t_re, input_precision="ieee"), input_precision="ieee")
        w = tl.load(scale_ptr + k)
        acc += w * (e_re * e_re + e_im * e_im)
    keep = (x[:, None] < H) & col_ok
    tl.store(img_ptr + x[:, None] * W + y[None, :], acc, mask=keep)


def run(spec: torch.Tensor, kernels: torch.Tensor, scales: torch.Tensor, H: int, W: int) -> torch.Tensor:
    K = kernels.shape[0]
    t = torch.empty((K, 2, P_PAD, W), device=spec.device, dtype=torch.float32)
    image = torch.empty((H, W), device=spec.device, dtype=torch.float32)
    _band_rows[(K, triton.cdiv(W, BN_A))](spec, kernels, t, W, 2.0 * math.pi / W,
                                          P=P, P_PAD=P_PAD, BN=BN_A, num_warps=4)
    _socs_image[(triton.cdiv(H, BM), triton.cdiv(W, BN))](t, scales, image, H, W, K, 2.0 * math.pi / H,
                                                          P=P, P_PAD=P_PAD, BM=BM, BN=BN,
                                                          num_warps=8, num_stages=3)
    return image
