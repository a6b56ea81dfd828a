"""Graph WaveNet gated TCN layer: tanh(filter_conv(x)) * sigmoid(gate_conv(x)), kernel (1, 2), dilation d."""
import torch
import triton
import triton.language as tl

_AI_CORES = 20


@triton.jit
def _gated_tcn(x, wf, bf, wg, bg, out, TN_in, TN_out, DN, n_rt, total,
               C: tl.constexpr, BR: tl.constexpr):
    # out[b, r, :] = tanh(x_r @ wf[0] + x_{r+dN} @ wf[1] + bf) * sigmoid(x_r @ wg[0] + x_{r+dN} @ wg[1] + bg)
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    ch = tl.arange(0, C)
    r = tl.arange(0, BR)
    wf0 = tl.load(wf + ch[:, None] * C + ch[None, :])
    wf1 = tl.load(wf + C * C + ch[:, None] * C + ch[None, :])
    wg0 = tl.load(wg + ch[:, None] * C + ch[None, :])
    wg1 = tl.load(wg + C * C + ch[:, None] * C + ch[None, :])
    b_f = tl.load(bf + ch).to(tl.float32)
    b_g = tl.load(bg + ch).to(tl.float32)
    for tile in range(pid, total, nprog):
        bi = tile // n_rt
        rows = (tile % n_rt) * BR + r
        rmask = rows[:, None] < TN_out
        xb = x + bi * TN_in * C
        x0 = tl.load(xb + rows[:, None] * C + ch[None, :], mask=rmask, other=0.0)
        x1 = tl.load(xb + (rows + DN)[:, None] * C + ch[None, :], mask=rmask, other=0.0)
        acc_f = tl.dot(x0, wf0)
        acc_f = tl.dot(x1, wf1, acc_f)
        acc_g = tl.dot(x0, wg0)
        acc_g = tl.dot(x1, wg1, acc_g)
        filt = 2.0 * tl.sigmoid(2.0 * (acc_f + b_f[None, :])) - 1.0   # tanh
        gate = tl.sigmoid(acc_g + b_g[None, :])
        tl.store(out + bi * TN_out * C + rows[:, None] * C + ch[None, :],
                 (filt * gate).to(out.dtype.element_ty), mask=rmask)


def run(x, wf, bf, wg, bg, dilation: int) -> torch.Tensor:
    B, T, N, C = x.shape
    T_out = T - dilation
    BR = 256
    n_rt = triton.cdiv(T_out * N, BR)
    total = B * n_rt
    out = torch.empty((B, T_out, N, C), device=x.device, dtype=x.dtype)
    grid = (min(_AI_CORES, total),)
    _gated_tcn[grid](x, wf, bf, wg, bg, out, T * N, T_out * N, dilation * N, n_rt, total, C=C, BR=BR)
    return out
