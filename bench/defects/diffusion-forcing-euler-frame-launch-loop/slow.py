"""Diffusion-forcing step: CFG combine + flow-matching Euler update with per-frame sigmas."""
import torch
import triton
import triton.language as tl

STEP_LAUNCH = {"BLOCK": 1024, "num_warps": 4}


@triton.jit
def _guided_velocity(v_cond, v_uncond, guidance):
    return v_uncond + guidance * (v_cond - v_uncond)


@triton.jit
def cfg_flow_euler_kernel(x_ptr, vc_ptr, vu_ptr, sig_ptr, sig_next_ptr, out_ptr, frame, hw, stride_bc, stride_f,
                          guidance, BLOCK: tl.constexpr):
    pb = tl.program_id(0)
    bc = tl.program_id(1)
    offs = pb * BLOCK + tl.arange(0, BLOCK)
    m = offs < hw
    base = bc * stride_bc + frame * stride_f
    dt = tl.load(sig_next_ptr + frame) - tl.load(sig_ptr + frame)
    x = tl.load(x_ptr + base + offs, mask=m, other=0.0)
    vc = tl.load(vc_ptr + base + offs, mask=m, other=0.0).to(tl.float32)
    vu = tl.load(vu_ptr + base + offs, mask=m, other=0.0).to(tl.float32)
    tl.store(out_ptr + base + offs, x + dt * _guided_velocity(vc, vu, guidance), mask=m)


def run(latents, v_cond, v_uncond, sigma, sigma_next, guidance):
    B, C, F, H, W = latents.shape
    hw = H * W
    out = torch.empty_like(latents)
    grid = (triton.cdiv(hw, STEP_LAUNCH["BLOCK"]), B * C)
    for f in range(F):
        cfg_flow_euler_kernel[grid](latents, v_cond, v_uncond, sigma, sigma_next, out, f, hw, F * hw, hw, guidance,
                                    **STEP_LAUNCH)
    return out
