"""Flash-attention backward, dK/dV kernel (causal): each program owns a block of keys and accumulates dK and dV
over the query blocks from its diagonal on (earlier queries cannot see these keys), recomputing
P = exp(q k^T * scale - lse) and masking the future keys inside the diagonal blocks."""
import torch
import triton
import triton.language as tl


@triton.jit
def attn_bwd_dkdv_kernel(q_ptr, k_ptr, v_ptr, do_ptr, lse_ptr, delta_ptr, dk_ptr, dv_ptr, S, scale,
                         D: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    start_n = tl.program_id(0) * BLOCK_N
    bh = tl.program_id(1).to(tl.int64)
    base = bh * S * D
    offs_n = start_n + tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, D)
    n_mask = offs_n < S
    k = tl.load(k_ptr + base + offs_n[:, None] * D + offs_d[None, :], mask=n_mask[:, None], other=0.0)
    v = tl.load(v_ptr + base + offs_n[:, None] * D + offs_d[None, :], mask=n_mask[:, None], other=0.0)
    dk = tl.zeros((BLOCK_N, D), dtype=tl.float32)
    dv = tl.zeros((BLOCK_N, D), dtype=tl.float32)
    for start_m in range(start_n, S, BLOCK_M):
        offs_m = start_m + tl.arange(0, BLOCK_M)
        m_mask = offs_m < S
        q = tl.load(q_ptr + base + offs_m[:, None] * D + offs_d[None, :], mask=m_mask[:, None], other=0.0)
        do = tl.load(do_ptr + base + offs_m[:, None] * D + offs_d[None, :], mask=m_mask[:, None], other=0.0)
        lse = tl.load(lse_ptr + bh * S + offs_m, mask=m_mask, other=0.0)
        delta = tl.load(delta_ptr + bh * S + offs_m, mask=m_mask, other=0.0)
        qkT = tl.dot(k, tl.trans(q))                                   # [BLOCK_N, BLOCK_M]
        keep = (offs_m[None, :] >= offs_n[:, None]) & m_mask[None, :]
        pT = tl.where(keep, tl.exp(qkT * scale - lse[None, :]), 0.0)
        dv += tl.dot(pT.to(do.dtype), do)
        dpT = tl.dot(v, tl.trans(do))
        dsT = pT * (dpT - delta[None, :])
        dk += tl.dot(dsT.to(q.dtype), q)
    out = base + offs_n[:, None] * D + offs_d[None, :]
    tl.store(dk_ptr + out, (dk * scale).to(dk_ptr.dtype.element_ty), mask=n_mask[:, None])
    tl.store(dv_ptr + out, dv.to(dv_ptr.dtype.element_ty), mask=n_mask[:, None])


def run(q, k, v, do, lse, delta, scale) -> tuple:
    B, H, S, D = q.shape
    dk = torch.empty_like(k)
    dv = torch.empty_like(v)
    BLOCK_M, BLOCK_N = 64, 128
    grid = (triton.cdiv(S, BLOCK_N), B * H)
    attn_bwd_dkdv_kernel[grid](q, k, v, do, lse, delta, dk, dv, S, scale, D=D, BLOCK_M=BLOCK_M,
                               BLOCK_N=BLOCK_N, num_warps=8, num_stages=2)
    return dk, dv
