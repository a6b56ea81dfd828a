"""Sliding-window attention forward: flash-attention with causal and window masks, key tiles scanned from the start of the sequence."""
import torch
import triton
import triton.language as tl


@triton.heuristics({"EVEN_S": lambda args: args["S"] % args["BLOCK_M"] == 0})
@triton.jit
def swa_fwd_kernel(q_ptr, k_ptr, v_ptr, o_ptr, S, WINDOW, qk_scale, D: tl.constexpr,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, EVEN_S: tl.constexpr):
    start_m = tl.program_id(0) * BLOCK_M
    base = tl.program_id(1).to(tl.int64) * S * D
    offs_m = start_m + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, D)
    if EVEN_S:
        q = tl.load(q_ptr + base + offs_m[:, None] * D + offs_d[None, :])
    else:
        q = tl.load(q_ptr + base + offs_m[:, None] * D + offs_d[None, :], mask=offs_m[:, None] < S, other=0.0)
    m_i = tl.full((BLOCK_M,), float("-inf"), dtype=tl.float32)
    l_i = tl.zeros((BLOCK_M,), dtype=tl.float32)
    acc = tl.zeros((BLOCK_M, D), dtype=tl.float32)
    hi = tl.minimum(start_m + BLOCK_M, S)
    for start_n in range(0, hi, BLOCK_N):
        cols = start_n + offs_n
        k = tl.load(k_ptr + base + cols[None, :] * D + offs_d[:, None], mask=cols[None, :] < S, other=0.0)
        qk = tl.dot(q, k) * qk_scale
        keep = (cols[None, :] <= offs_m[:, None]) & (cols[None, :] > offs_m[:, None] - WINDOW) & (cols[None, :] < S)
        qk = tl.where(keep, qk, -1.0e30)
        m_new = tl.maximum(m_i, tl.max(qk, axis=1))
        alpha = tl.exp2(m_i - m_new)
        p = tl.exp2(qk - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, axis=1)
        v = tl.load(v_ptr + base + cols[:, None] * D + offs_d[None, :], mask=cols[:, None] < S, other=0.0)
        acc = tl.dot(p.to(v.dtype), v, acc * alpha[:, None])
        m_i = m_new
    o = (acc / l_i[:, None]).to(o_ptr.dtype.element_ty)
    if EVEN_S:
        tl.store(o_ptr + base + offs_m[:, None] * D + offs_d[None, :], o)
    else:
        tl.store(o_ptr + base + offs_m[:, None] * D + offs_d[None, :], o, mask=offs_m[:, None] < S)


def run(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, window: int) -> torch.Tensor:
    B, H, S, D = q.shape
    o = torch.empty_like(q)
    qk_scale = 1.4426950408889634 / D ** 0.5
    swa_fwd_kernel[(triton.cdiv(S, 128), B * H)](q, k, v, o, S, window, qk_scale, D=D, BLOCK_M=128, BLOCK_N=64,
                                                 num_warps=8)
    return o
