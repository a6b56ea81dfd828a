"""Norse LIF feed-forward layer over T time steps: one Euler step of (v, i) per launch."""
import torch
import triton
import triton.language as tl

BLOCK = 1024


@triton.jit
def _lif_ff_step(x, v_in, i_in, v_out, i_out, z, t_off, n, a_mem, c_syn, v_leak, v_th, v_reset,
                 BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x_t = tl.load(x + t_off + offs, mask=mask, other=0.0)
    v = tl.load(v_in + offs, mask=mask, other=0.0)
    i = tl.load(i_in + offs, mask=mask, other=0.0)
    i_jump = i + x_t
    v_dec = v + a_mem * ((v_leak - v) + i_jump)
    i_dec = i_jump + c_syn * i_jump
    spike = (v_dec - v_th) > 0.0
    tl.store(z + t_off + offs, spike.to(tl.float32), mask=mask)
    tl.store(v_out + offs, tl.where(spike, v_reset, v_dec), mask=mask)
    tl.store(i_out + offs, i_dec, mask=mask)


def run(x, v0, i0, dt, tau_mem_inv, tau_syn_inv, v_leak, v_th, v_reset):
    steps = x.shape[0]
    n = v0.numel()
    z = torch.empty_like(x)
    v = torch.empty_like(v0)
    i = torch.empty_like(i0)
    a_mem = dt * tau_mem_inv
    c_syn = -dt * tau_syn_inv
    grid = (triton.cdiv(n, BLOCK),)
    for t in range(steps):
        # the first step reads the caller's state, later steps update the output state in place
        v_src, i_src = (v0, i0) if t == 0 else (v, i)
        _lif_ff_step[grid](x, v_src, i_src, v, i, z, t * n, n, a_mem, c_syn, v_leak, v_th, v_reset,
                           BLOCK=BLOCK, num_warps=4, enable_fp_fusion=False)
    return z, v, i
