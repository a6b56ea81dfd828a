"""Norse stdp_step_linear: trace update, then batch-summed STDP coincidences per weight tile (tl.dot)."""
import torch
import triton
import triton.language as tl

BLOCK_TRACE = 1024
BLOCK_O = 64
BLOCK_I = 64
BLOCK_B = 32


@triton.jit
def _trace_step(trace, spikes, out, n, gain, amp, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tr = tl.load(trace + offs, mask=mask, other=0.0)
    z = tl.load(spikes + offs, mask=mask, other=0.0)
    tl.store(out + offs, tr + gain * (-tr + amp * z), mask=mask)


@triton.jit
def _stdp_weights(w, w_out, z_pre, z_post, t_pre, t_post, batch, n_in, n_out,
                  eta_plus, eta_minus, w_min, w_max,
                  BLOCK_O: tl.constexpr, BLOCK_I: tl.constexpr, BLOCK_B: tl.constexpr):
    o = tl.program_id(0) * BLOCK_O + tl.arange(0, BLOCK_O)
    i = tl.program_id(1) * BLOCK_I + tl.arange(0, BLOCK_I)
    o_ok = o < n_out
    i_ok = i < n_in
    pot = tl.zeros([BLOCK_O, BLOCK_I], dtype=tl.float32)
    dep = tl.zeros([BLOCK_O, BLOCK_I], dtype=tl.float32)
    for b0 in range(0, batch, BLOCK_B):
        b = b0 + tl.arange(0, BLOCK_B)
        b_ok = b < batch
        post_mask = b_ok[:, None] & o_ok[None, :]
        pre_mask = b_ok[:, None] & i_ok[None, :]
        zpo = tl.load(z_post + b[:, None] * n_out + o[None, :], mask=post_mask, other=0.0)
        tpo = tl.load(t_post + b[:, None] * n_out + o[None, :], mask=post_mask, other=0.0)
        zpr = tl.load(z_pre + b[:, None] * n_in + i[None, :], mask=pre_mask, other=0.0)
        tpr = tl.load(t_pre + b[:, None] * n_in + i[None, :], mask=pre_mask, other=0.0)
        # sum over the batch chunk of the outer products z_post[b]^T t_pre[b] and t_post[b]^T z_pre[b]
        pot = tl.dot(tl.trans(zpo), tpr, pot)
        dep = tl.dot(tl.trans(tpo), zpr, dep)
    w_mask = o_ok[:, None] & i_ok[None, :]
    w_offs = o[:, None] * n_in + i[None, :]
    wt = tl.load(w + w_offs, mask=w_mask, other=0.0)
    dw = eta_plus * tl.maximum(w_max - wt, 0.0) * pot - eta_minus * tl.maximum(wt - w_min, 0.0) * dep
    tl.store(w_out + w_offs, tl.minimum(tl.maximum(wt + dw, w_min), w_max), mask=w_mask)


def run(z_pre, z_post, w, t_pre, t_post, dt, tau_pre_inv, tau_post_inv, a_pre, a_post,
        eta_plus, eta_minus, w_min, w_max):
    batch, n_in = z_pre.shape
    n_out = z_post.shape[1]
    t_pre_new = torch.empty_like(t_pre)
    t_post_new = torch.empty_like(t_post)
    w_new = torch.empty_like(w)
    _trace_step[(triton.cdiv(batch * n_in, BLOCK_TRACE),)](t_pre, z_pre, t_pre_new, batch * n_in,
                                                           dt * tau_pre_inv, a_pre, BLOCK=BLOCK_TRACE)
    _trace_step[(triton.cdiv(batch * n_out, BLOCK_TRACE),)](t_post, z_post, t_post_new, batch * n_out,
                                                            dt * tau_post_inv, a_post, BLOCK=BLOCK_TRACE)
    grid = (triton.cdiv(n_out, BLOCK_O), triton.cdiv(n_in, BLOCK_I))
    _stdp_weights[grid](w, w_new, z_pre, z_post, t_pre_new, t_post_new, batch, n_in, n_out,
                        eta_plus, eta_minus, w_min, w_max,
                        BLOCK_O=BLOCK_O, BLOCK_I=BLOCK_I, BLOCK_B=BLOCK_B, num_warps=4)
    return w_new, t_pre_new, t_post_new
