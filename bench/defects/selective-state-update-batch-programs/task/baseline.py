"""Mamba-2 selective_state_update: one program per (16-row headdim block, batch, head), a [16, N] fp32 state tile each."""
import torch
import triton
import triton.language as tl


@triton.jit
def ssu_kernel(state_ptr, x_ptr, dt_ptr, dt_bias_ptr, A_ptr, D_ptr, B_ptr, C_ptr, y_ptr, new_state_ptr,
               H, P, N, BLOCK_P: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_p = tl.program_id(0)
    b = tl.program_id(1)
    h = tl.program_id(2)
    p = pid_p * BLOCK_P + tl.arange(0, BLOCK_P)
    n = tl.arange(0, BLOCK_N)
    dt = tl.load(dt_ptr + b * H + h) + tl.load(dt_bias_ptr + h)
    dt = tl.where(dt <= 20.0, tl.log(1.0 + tl.exp(dt)), dt)
    dA = tl.exp(tl.load(A_ptr + h) * dt)
    x = tl.load(x_ptr + (b * H + h) * P + p, mask=p < P, other=0.0).to(tl.float32)
    Bv = tl.load(B_ptr + b * N + n, mask=n < N, other=0.0).to(tl.float32)
    Cv = tl.load(C_ptr + b * N + n, mask=n < N, other=0.0).to(tl.float32)
    offs = ((b * H + h) * P + p[:, None]) * N + n[None, :]
    tile = (p[:, None] < P) & (n[None, :] < N)
    s = tl.load(state_ptr + offs, mask=tile, other=0.0)
    s = s * dA + (dt * x)[:, None] * Bv[None, :]
    tl.store(new_state_ptr + offs, s, mask=tile)
    y = tl.sum(s * Cv[None, :], axis=1) + tl.load(D_ptr + h) * x
    tl.store(y_ptr + (b * H + h) * P + p, y.to(y_ptr.dtype.element_ty), mask=p < P)


def run(state, x, dt, dt_bias, A, D, Bm, Cm):
    B, H, P, N = state.shape
    y = torch.empty_like(x)
    new_state = torch.empty_like(state)
    grid = (triton.cdiv(P, 16), B, H)
    ssu_kernel[grid](state, x, dt, dt_bias, A, D, Bm, Cm, y, new_state, H, P, N,
                     BLOCK_P=16, BLOCK_N=triton.next_power_of_2(N))
    return y, new_state
