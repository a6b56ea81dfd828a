"""Packed-sample volume rendering: one program per ray, chunked scan of the optical depth."""
import torch
import triton
import triton.language as tl


@triton.jit
def _sample_alpha(sig_ptr, t0_ptr, t1_ptr, offs, m):
    sigma = tl.load(sig_ptr + offs, mask=m, other=0.0)
    t0 = tl.load(t0_ptr + offs, mask=m, other=0.0)
    t1 = tl.load(t1_ptr + offs, mask=m, other=0.0)
    tau = sigma * (t1 - t0)
    return tau, 0.5 * (t0 + t1)


@triton.jit
def composite_train_kernel(sig_ptr, rgb_ptr, t0_ptr, t1_ptr, packed_ptr, w_ptr,
                           color_ptr, depth_ptr, opac_ptr, BLOCK: tl.constexpr):
    ray = tl.program_id(0)
    start = tl.load(packed_ptr + ray * 2)
    count = tl.load(packed_ptr + ray * 2 + 1)
    carry = tl.zeros([], dtype=tl.float32)
    acc_r = tl.zeros([BLOCK], dtype=tl.float32)
    acc_g = tl.zeros([BLOCK], dtype=tl.float32)
    acc_b = tl.zeros([BLOCK], dtype=tl.float32)
    acc_d = tl.zeros([BLOCK], dtype=tl.float32)
    acc_o = tl.zeros([BLOCK], dtype=tl.float32)
    for c in range(0, count, BLOCK):
        idx = c + tl.arange(0, BLOCK)
        m = idx < count
        offs = start + idx
        tau, t_mid = _sample_alpha(sig_ptr, t0_ptr, t1_ptr, offs, m)
        incl = tl.cumsum(tau, axis=0)
        trans = tl.exp(-(carry + (incl - tau)))
        w = trans * (1.0 - tl.exp(-tau))
        tl.store(w_ptr + offs, w, mask=m)
        r = tl.load(rgb_ptr + offs * 3 + 0, mask=m, other=0.0)
        g = tl.load(rgb_ptr + offs * 3 + 1, mask=m, other=0.0)
        b = tl.load(rgb_ptr + offs * 3 + 2, mask=m, other=0.0)
        acc_r += w * r
        acc_g += w * g
        acc_b += w * b
        acc_d += w * t_mid
        acc_o += w
        carry += tl.sum(tau, axis=0)
    tl.store(color_ptr + ray * 3 + 0, tl.sum(acc_r, axis=0))
    tl.store(color_ptr + ray * 3 + 1, tl.sum(acc_g, axis=0))
    tl.store(color_ptr + ray * 3 + 2, tl.sum(acc_b, axis=0))
    tl.store(depth_ptr + ray, tl.sum(acc_d, axis=0))
    tl.store(opac_ptr + ray, tl.sum(acc_o, axis=0))


def run(sigmas, rgbs, t_starts, t_ends, packed_info):
    S = sigmas.shape[0]
    R = packed_info.shape[0]
    weights = torch.empty(S, device=sigmas.device, dtype=sigmas.dtype)
    color = torch.empty((R, 3), device=sigmas.device, dtype=sigmas.dtype)
    depth = torch.empty(R, device=sigmas.device, dtype=sigmas.dtype)
    opacity = torch.empty(R, device=sigmas.device, dtype=sigmas.dtype)
    launch = {"BLOCK": 128, "num_warps": 4}
    composite_train_kernel[(R,)](sigmas, rgbs, t_starts, t_ends, packed_info, weights,
                                 color, depth, opacity, **launch)
    return weights, color, depth, opacity
