"""Recurrent retention: the single-token (decode) state-update kernel, launched once per position of the prompt."""
import torch
import triton
import triton.language as tl


@triton.jit
def recurrent_step_kernel(q_ptr, k_ptr, v_ptr, g_ptr, state_ptr, o_ptr, t, T, H, scale,
                          D: tl.constexpr, BV: tl.constexpr):
    bh = tl.program_id(0)
    b = bh // H
    h = bh % H
    rk = tl.arange(0, D)
    rv = tl.program_id(1) * BV + tl.arange(0, BV)
    tok = ((b * T + t) * H + h) * D
    s_ptrs = state_ptr + bh * D * D + rk[:, None] * D + rv[None, :]
    state = tl.load(s_ptrs)
    q = tl.load(q_ptr + tok + rk)
    k = tl.load(k_ptr + tok + rk)
    v = tl.load(v_ptr + tok + rv)
    state = state * tl.exp(tl.load(g_ptr + h)) + k[:, None] * v[None, :]
    tl.store(s_ptrs, state)
    tl.store(o_ptr + tok + rv, tl.sum(state * q[:, None], axis=0) * scale)


def run(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, g: torch.Tensor) -> torch.Tensor:
    B, T, H, D = q.shape
    BV = 32
    state = torch.zeros((B * H, D, D), dtype=torch.float32, device=q.device)
    o = torch.empty_like(q)
    grid = (B * H, D // BV)
    for t in range(T):
        recurrent_step_kernel[grid](q, k, v, g, state, o, t, T, H, D ** -0.5, D=D, BV=BV, num_warps=4)
    return o
