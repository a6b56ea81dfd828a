"""Open-Sora STDiT temporal attention: FlashAttention-style forward over the frame axis of strided
[B, T, S, H, Dh] q/k/v, one program per (batch, spatial token, head) and block of frames."""
import torch
import triton
import triton.language as tl


@triton.jit
def _load_frames(base_ptr, offs_t, offs_d, T, Dh, stride_t):
    mask = (offs_t[:, None] < T) & (offs_d[None, :] < Dh)
    return tl.load(base_ptr + offs_t[:, None] * stride_t + offs_d[None, :], mask=mask, other=0.0)


@triton.jit
def temporal_attn_fwd_kernel(q_ptr, k_ptr, v_ptr, o_ptr, T, S, H, Dh,
                             stride_b, stride_t, stride_s, stride_h, qk_scale,
                             BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_D: tl.constexpr):
    seq = tl.program_id(0)
    pid_m = tl.program_id(1)
    h = seq % H
    s = (seq // H) % S
    b = seq // (H * S)
    base = b * stride_b + s * stride_s + h * stride_h
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, BLOCK_D)
    q = _load_frames(q_ptr + base, offs_m, offs_d, T, Dh, stride_t)

    m_i = tl.full([BLOCK_M], float("-inf"), dtype=tl.float32)
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, BLOCK_D], dtype=tl.float32)
    for start_n in range(0, T, BLOCK_N):
        offs_n = start_n + tl.arange(0, BLOCK_N)
        k = _load_frames(k_ptr + base, offs_n, offs_d, T, Dh, stride_t)
        v = _load_frames(v_ptr + base, offs_n, offs_d, T, Dh, stride_t)
        qk = tl.dot(q, tl.trans(k)) * qk_scale
        qk = tl.where(offs_n[None, :] < T, qk, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        alpha = tl.math.exp2(m_i - m_new)
        p = tl.math.exp2(qk - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_new

    out = (acc / l_i[:, None]).to(o_ptr.dtype.element_ty)
    mask = (offs_m[:, None] < T) & (offs_d[None, :] < Dh)
    tl.store(o_ptr + base + offs_m[:, None] * stride_t + offs_d[None, :], out, mask=mask)


def _attn_config(seq_len: int, head_dim: int) -> dict:
    if seq_len >= 1024:
        return {"BLOCK_M": 128, "BLOCK_N": 128, "num_warps": 8, "num_stages": 3}
    block = max(16, min(64, triton.next_power_of_2(seq_len)))
    return {"BLOCK_M": block, "BLOCK_N": block, "num_warps": 8 if head_dim > 64 and block >= 64 else 4, "num_stages": 2}


def run(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    B, T, S, H, Dh = q.shape
    o = torch.empty_like(q)
    cfg = _attn_config(T, Dh)
    qk_scale = Dh ** -0.5 * 1.4426950408889634
    grid = (B * S * H, triton.cdiv(T, cfg["BLOCK_M"]))
    temporal_attn_fwd_kernel[grid](q, k, v, o, T, S, H, Dh, *q.stride()[:4], qk_scale,
                                   BLOCK_D=triton.next_power_of_2(Dh), **cfg)
    return o
