"""Recurrent retention: one launch, each program keeps its state slice in registers and walks the sequence."""
import torch
import triton
import triton.language as tl


@triton.jit
def fused_recurrent_kernel(q_ptr, k_ptr, v_ptr, g_ptr, o_ptr, T, H, scale,
                           D: tl.constexpr, BV: tl.constexpr):
    bh = tl.program_id(0)
    b = bh // H
    h = bh % H
    rk = tl.arange(0, D)
    rv = tl.program_id(1) * BV + tl.arange(0, BV)
    decay = tl.exp(tl.load(g_ptr + h))
    state = tl.zeros((D, BV), dtype=tl.float32)
    for t in range(0, T):
        tok = ((b * T + t) * H + h) * D
        q = tl.load(q_ptr + tok + rk)
        k = tl.load(k_ptr + tok + rk)
        v = tl.load(v_ptr + tok + rv)
        state = state * decay + k[:, None] * v[None, :]
        tl.store(o_ptr + tok + rv, tl.sum(state * q[:, None], axis=0) * scale)


def run(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, g: torch.Tensor) -> torch.Tensor:
    B, T, H, D = q.shape
    BV = 32
    o = torch.empty_like(q)
    fused_recurrent_kernel[(B * H, D // BV)](q, k, v, g, o, T, H, D ** -0.5, D=D, BV=BV, num_warps=4)
    return o
