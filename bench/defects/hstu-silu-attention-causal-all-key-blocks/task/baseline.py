"""HSTU jagged causal attention: silu(alpha * q k^T) / max_seq_len weights applied to V, per (query tile, seq, head)."""
import torch
import triton
import triton.language as tl


@triton.jit
def _pointwise_weights(q, k, alpha, inv_max_len):
    qk = tl.dot(q, tl.trans(k)) * alpha
    return qk * tl.sigmoid(qk) * inv_max_len


@triton.jit
def _load_rows(base, rows, seq_len, stride_t, offs_d, head_dim):
    ptrs = base + rows[:, None] * stride_t + offs_d[None, :]
    return tl.load(ptrs, mask=(rows[:, None] < seq_len) & (offs_d[None, :] < head_dim), other=0.0)


@triton.jit
def _hstu_attn_fwd(
    Q, K, V, Out, seq_offsets, alpha, inv_max_len,
    stride_qt, stride_qh, stride_kt, stride_kh, stride_vt, stride_vh, stride_ot, stride_oh,
    H, head_dim,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_D: tl.constexpr,
):
    start_m = tl.program_id(0) * BLOCK_M
    off_hz = tl.program_id(1)
    off_z = off_hz // H
    off_h = off_hz % H
    seq_start = tl.load(seq_offsets + off_z)
    seq_len = (tl.load(seq_offsets + off_z + 1) - seq_start).to(tl.int32)
    if start_m >= seq_len:
        return
    offs_m = start_m + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, BLOCK_D)
    q = _load_rows(Q + seq_start * stride_qt + off_h * stride_qh, offs_m, seq_len, stride_qt, offs_d, head_dim)
    k_base = K + seq_start * stride_kt + off_h * stride_kh
    v_base = V + seq_start * stride_vt + off_h * stride_vh
    acc = tl.zeros([BLOCK_M, BLOCK_D], dtype=tl.float32)
    kv_end = tl.minimum(start_m + BLOCK_M, seq_len)
    for start_n in range(0, kv_end, BLOCK_N):
        offs_n = start_n + tl.arange(0, BLOCK_N)
        k = _load_rows(k_base, offs_n, seq_len, stride_kt, offs_d, head_dim)
        v = _load_rows(v_base, offs_n, seq_len, stride_vt, offs_d, head_dim)
        w = _pointwise_weights(q, k, alpha, inv_max_len)
        causal = (offs_m[:, None] >= offs_n[None, :]) & (offs_n[None, :] < seq_len)
        w = tl.where(causal, w, 0.0)
        acc += tl.dot(w.to(v.dtype), v)
    o_ptrs = Out + (seq_start + offs_m)[:, None] * stride_ot + off_h * stride_oh + offs_d[None, :]
    tl.store(o_ptrs, acc.to(Out.dtype.element_ty), mask=(offs_m[:, None] < seq_len) & (offs_d[None, :] < head_dim))


def _launch_config(max_seq_len: int) -> dict:
    if max_seq_len >= 1024:
        return {"BLOCK_M": 128, "BLOCK_N": 64, "num_warps": 8, "num_stages": 2}
    if max_seq_len >= 256:
        return {"BLOCK_M": 64, "BLOCK_N": 64, "num_warps": 4, "num_stages": 2}
    return {"BLOCK_M": 16, "BLOCK_N": 16, "num_warps": 2, "num_stages": 1}


def run(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, seq_offsets: torch.Tensor,
        max_seq_len: int, alpha: float) -> torch.Tensor:
    _, H, D = q.shape
    B = seq_offsets.numel() - 1
    out = torch.empty_like(q)
    cfg = _launch_config(max_seq_len)
    grid = (triton.cdiv(max_seq_len, cfg["BLOCK_M"]), B * H)
    _hstu_attn_fwd[grid](
        q, k, v, out, seq_offsets, alpha, 1.0 / max_seq_len,
        q.stride(0), q.stride(1), k.stride(0), k.stride(1), v.stride(0), v.stride(1), out.stride(0), out.stride(1),
        H, D, BLOCK_D=triton.next_power_of_2(D), **cfg,
    )
    return out
