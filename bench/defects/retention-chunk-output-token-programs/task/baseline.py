"""Chunkwise retention: chunk states by tl.dot per chunk, then each (chunk, V block) output tile by tl.dot."""
import torch
import triton
import triton.language as tl

_CHUNK = 64


@triton.jit
def _head_log2_decay(i_h):
    return tl.log2(1.0 - tl.exp2(-5.0 - i_h.to(tl.float32)))


@triton.jit
def _chunk_retention_fwd_h(
    k_ptr, v_ptr, h_ptr, T, H: tl.constexpr, K: tl.constexpr, V: tl.constexpr, NT,
    BT: tl.constexpr, BK: tl.constexpr, BV: tl.constexpr,
):
    i_k, i_v, i_bh = tl.program_id(0), tl.program_id(1), tl.program_id(2)
    b_b = _head_log2_decay(i_bh % H)
    o_t = tl.arange(0, BT)
    d_k = tl.exp2((BT - 1 - o_t) * b_b)
    d_last = tl.exp2(BT * b_b)
    b_h = tl.zeros([BK, BV], dtype=tl.float32)
    for i_t in range(NT):
        p_h = tl.make_block_ptr(h_ptr + (i_bh * NT + i_t) * K * V, (K, V), (V, 1),
                                (i_k * BK, i_v * BV), (BK, BV), (1, 0))
        tl.store(p_h, b_h.to(p_h.dtype.element_ty), boundary_check=(0, 1))
        p_k = tl.make_block_ptr(k_ptr + i_bh * T * K, (K, T), (1, K), (i_k * BK, i_t * BT), (BK, BT), (0, 1))
        p_v = tl.make_block_ptr(v_ptr + i_bh * T * V, (T, V), (V, 1), (i_t * BT, i_v * BV), (BT, BV), (1, 0))
        b_k = tl.load(p_k, boundary_check=(0, 1))
        b_v = tl.load(p_v, boundary_check=(0, 1))
        b_h = b_h * d_last + tl.dot((b_k * d_k[None, :]).to(b_k.dtype), b_v)


@triton.jit
def _chunk_retention_fwd_o(
    q_ptr, k_ptr, v_ptr, h_ptr, o_ptr, scale, T, H: tl.constexpr, K: tl.constexpr, V: tl.constexpr, NT,
    BT: tl.constexpr, BK: tl.constexpr, BV: tl.constexpr,
):
    i_v, i_t, i_bh = tl.program_id(0), tl.program_id(1), tl.program_id(2)
    b_b = _head_log2_decay(i_bh % H)
    b_o = tl.zeros([BT, BV], dtype=tl.float32)
    b_s = tl.zeros([BT, BT], dtype=tl.float32)
    for i_k in range(tl.cdiv(K, BK)):
        p_q = tl.make_block_ptr(q_ptr + i_bh * T * K, (T, K), (K, 1), (i_t * BT, i_k * BK), (BT, BK), (1, 0))
        p_k = tl.make_block_ptr(k_ptr + i_bh * T * K, (K, T), (1, K), (i_k * BK, i_t * BT), (BK, BT), (0, 1))
        p_h = tl.make_block_ptr(h_ptr + (i_bh * NT + i_t) * K * V, (K, V), (V, 1),
                                (i_k * BK, i_v * BV), (BK, BV), (1, 0))
        b_q = tl.load(p_q, boundary_check=(0, 1))
        b_k = tl.load(p_k, boundary_check=(0, 1))
        b_h = tl.load(p_h, boundary_check=(0, 1))
        b_o += tl.dot(b_q, b_h)
        b_s += tl.dot(b_q, b_k)
    o_i = tl.arange(0, BT)
    b_o = b_o * tl.exp2((o_i + 1) * b_b)[:, None]
    b_s = tl.where(o_i[:, None] >= o_i[None, :], b_s * tl.exp2((o_i[:, None] - o_i[None, :]) * b_b), 0.0)
    p_v = tl.make_block_ptr(v_ptr + i_bh * T * V, (T, V), (V, 1), (i_t * BT, i_v * BV), (BT, BV), (1, 0))
    b_v = tl.load(p_v, boundary_check=(0, 1))
    b_o = (b_o + tl.dot(b_s.to(b_v.dtype), b_v)) * scale
    p_o = tl.make_block_ptr(o_ptr + i_bh * T * V, (T, V), (V, 1), (i_t * BT, i_v * BV), (BT, BV), (1, 0))
    tl.store(p_o, b_o.to(p_o.dtype.element_ty), boundary_check=(0, 1))


def run(q, k, v):
    B, H, T, K = q.shape
    V = v.shape[-1]
    BT = _CHUNK
    BK = min(64, max(16, triton.next_power_of_2(K)))
    BV = min(64, max(16, triton.next_power_of_2(V)))
    NT, NK, NV = triton.cdiv(T, BT), triton.cdiv(K, BK), triton.cdiv(V, BV)
    h = torch.empty(B * H, NT, K, V, device=q.device, dtype=k.dtype)
    o = torch.empty_like(v)
    meta = {"BT": BT, "BK": BK, "BV": BV, "num_warps": 8, "num_stages": 2}
    _chunk_retention_fwd_h[(NK, NV, B * H)](k, v, h, T, H, K, V, NT, **meta)
    _chunk_retention_fwd_o[(NV, NT, B * H)](q, k, v, h, o, K ** -0.5, T, H, K, V, NT, **meta)
    return o
