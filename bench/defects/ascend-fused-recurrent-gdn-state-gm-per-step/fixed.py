"""Fused recurrent gated delta rule for Qwen3-Next decode on Ascend: one program per (value block, sequence *
value head); the [K, BV] state tile is loaded once and carried through the time loop."""
import torch
import triton
import triton.language as tl


@triton.jit
def _delta_step(b_h, b_q, b_k, b_v, b_g, b_beta, scale):
    b_h = b_h * tl.exp(b_g)
    b_u = b_beta * (b_v - tl.sum(b_h * b_k[:, None], axis=0))
    b_h = b_h + b_k[:, None] * b_u[None, :]
    b_o = tl.sum(b_h * b_q[:, None], axis=0) * scale
    return b_h, b_o


@triton.jit
def fused_recurrent_gdn_kernel(q_ptr, k_ptr, v_ptr, g_ptr, beta_ptr, h0_ptr, o_ptr, ht_ptr, scale,
                               T, HK: tl.constexpr, HV: tl.constexpr, K: tl.constexpr, V: tl.constexpr,
                               BK: tl.constexpr, BV: tl.constexpr):
    i_v = tl.program_id(0)
    i_bh = tl.program_id(1)
    i_b = i_bh // HV
    i_hv = i_bh % HV
    i_hk = i_hv // (HV // HK)
    o_k = tl.arange(0, BK)
    o_v = i_v * BV + tl.arange(0, BV)
    m_k = o_k < K
    m_v = o_v < V
    m_h = m_k[:, None] & m_v[None, :]
    p_state = i_bh * K * V + o_k[:, None] * V + o_v[None, :]
    b_h = tl.load(h0_ptr + p_state, mask=m_h, other=0.0)
    for t in range(T):
        qk_off = ((i_b * T + t) * HK + i_hk) * K
        v_off = ((i_b * T + t) * HV + i_hv) * V
        gb_off = (i_b * T + t) * HV + i_hv
        b_q = tl.load(q_ptr + qk_off + o_k, mask=m_k, other=0.0).to(tl.float32)
        b_k = tl.load(k_ptr + qk_off + o_k, mask=m_k, other=0.0).to(tl.float32)
        b_v = tl.load(v_ptr + v_off + o_v, mask=m_v, other=0.0).to(tl.float32)
        b_g = tl.load(g_ptr + gb_off)
        b_beta = tl.load(beta_ptr + gb_off)
        b_h, b_o = _delta_step(b_h, b_q, b_k, b_v, b_g, b_beta, scale)
        tl.store(o_ptr + v_off + o_v, b_o.to(o_ptr.dtype.element_ty), mask=m_v)
    tl.store(ht_ptr + p_state, b_h, mask=m_h)


def run(q, k, v, g, beta, h0):
    B, T, HK, K = q.shape
    HV, V = v.shape[2], v.shape[3]
    o = torch.empty_like(v)
    ht = torch.empty_like(h0)
    BK = triton.next_power_of_2(K)
    BV = min(triton.next_power_of_2(V), 32)
    grid = (triton.cdiv(V, BV), B * HV)
    fused_recurrent_gdn_kernel[grid](q, k, v, g, beta, h0, o, ht, K ** -0.5, T, HK=HK, HV=HV, K=K, V=V,
                                     BK=BK, BV=BV)
    return o, ht
