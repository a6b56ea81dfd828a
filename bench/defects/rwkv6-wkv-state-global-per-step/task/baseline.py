"""RWKV-6 WKV recurrence: per (batch, head) a [K, V] state decayed by exp(w_t) and updated by k_t v_t^T."""
import torch
import triton
import triton.language as tl


@triton.jit
def _wkv6_fwd(r, k, v, w, u, h0, o, ht, T,
              H: tl.constexpr, K: tl.constexpr, V: tl.constexpr, BV: tl.constexpr):
    pid_v = tl.program_id(0)
    bh = tl.program_id(1)
    b = bh // H
    hd = bh % H
    offs_k = tl.arange(0, K)
    offs_v = pid_v * BV + tl.arange(0, BV)
    p_state = (bh * K + offs_k[:, None]) * V + offs_v[None, :]
    state = tl.load(h0 + p_state)
    bonus = tl.load(u + hd * K + offs_k)
    p_k = b * T * H * K + hd * K + offs_k
    p_v = b * T * H * V + hd * V + offs_v
    for t in range(T):
        r_t = tl.load(r + p_k).to(tl.float32)
        k_t = tl.load(k + p_k).to(tl.float32)
        w_t = tl.load(w + p_k)
        v_t = tl.load(v + p_v).to(tl.float32)
        kv = k_t[:, None] * v_t[None, :]
        o_t = tl.sum(r_t[:, None] * (state + bonus[:, None] * kv), axis=0)
        state = state * tl.exp(w_t)[:, None] + kv
        tl.store(o + p_v, o_t.to(o.dtype.element_ty))
        p_k += H * K
        p_v += H * V
    tl.store(ht + p_state, state)


def run(r, k, v, w, u, h0):
    B, T, H, K = r.shape
    V = v.shape[-1]
    o = torch.empty(B, T, H, V, device=r.device, dtype=r.dtype)
    ht = torch.empty(B, H, K, V, device=r.device, dtype=torch.float32)
    BV = min(32, V)
    _wkv6_fwd[(triton.cdiv(V, BV), B * H)](r, k, v, w, u, h0, o, ht, T, H=H, K=K, V=V, BV=BV, num_warps=2)
    return o, ht
