"""Packed-sample volume rendering: one program per ray, front-to-back over the ray's samples."""
import torch
import triton
import triton.language as tl


@triton.jit
def _sample_alpha(sig_ptr, t0_ptr, t1_ptr, offs):
    sigma = tl.load(sig_ptr + offs)
    t0 = tl.load(t0_ptr + offs)
    t1 = tl.load(t1_ptr + offs)
    tau = sigma * (t1 - t0)
    return tau, 0.5 * (t0 + t1)


@triton.jit
def composite_train_kernel(sig_ptr, rgb_ptr, t0_ptr, t1_ptr, packed_ptr, w_ptr,
                           color_ptr, depth_ptr, opac_ptr):
    ray = tl.program_id(0)
    start = tl.load(packed_ptr + ray * 2)
    count = tl.load(packed_ptr + ray * 2 + 1)
    trans = tl.full([], 1.0, dtype=tl.float32)
    acc_r = tl.zeros([], dtype=tl.float32)
    acc_g = tl.zeros([], dtype=tl.float32)
    acc_b = tl.zeros([], dtype=tl.float32)
    acc_d = tl.zeros([], dtype=tl.float32)
    acc_o = tl.zeros([], dtype=tl.float32)
    for i in range(0, count):
        offs = start + i
        tau, t_mid = _sample_alpha(sig_ptr, t0_ptr, t1_ptr, offs)
        w = trans * (1.0 - tl.exp(-tau))
        tl.store(w_ptr + offs, w)
        r = tl.load(rgb_ptr + offs * 3 + 0)
        g = tl.load(rgb_ptr + offs * 3 + 1)
        b = tl.load(rgb_ptr + offs * 3 + 2)
        acc_r += w * r
        acc_g += w * g
        acc_b += w * b
        acc_d += w * t_mid
        acc_o += w
        trans = trans * tl.exp(-tau)
    tl.store(color_ptr + ray * 3 + 0, acc_r)
    tl.store(color_ptr + ray * 3 + 1, acc_g)
    tl.store(color_ptr + ray * 3 + 2, acc_b)
    tl.store(depth_ptr + ray, acc_d)
    tl.store(opac_ptr + ray, acc_o)


def run(sigmas, rgbs, t_starts, t_ends, packed_info):
    S = sigmas.shape[0]
    R = packed_info.shape[0]
    weights = torch.empty(S, device=sigmas.device, dtype=sigmas.dtype)
    color = torch.empty((R, 3), device=sigmas.device, dtype=sigmas.dtype)
    depth = torch.empty(R, device=sigmas.device, dtype=sigmas.dtype)
    opacity = torch.empty(R, device=sigmas.device, dtype=sigmas.dtype)
    launch = {"num_warps": 4}
    composite_train_kernel[(R,)](sigmas, rgbs, t_starts, t_ends, packed_info, weights,
                                 color, depth, opacity, **launch)
    return weights, color, depth, opacity
