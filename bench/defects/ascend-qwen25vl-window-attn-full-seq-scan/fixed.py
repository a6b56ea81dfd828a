"""Qwen2.5-VL vision window attention (flash_attn_varlen_func over cu_window_seqlens) on Ascend: grid sized
to the AI cores, tasks = (window, query block, head), online softmax over the keys of the task's window."""
import torch
import triton
import triton.language as tl

CORE_NUM = 20
BLOCK_M = 64
BLOCK_N = 128


@triton.jit
def _attend_block(q, acc, m_i, l_i, k_ptr, v_ptr, n0, lo, hi, head_off, stride_tok, qk_scale, offs_d, d_mask,
                  BLOCK_N: tl.constexpr):
    offs_n = n0 + tl.arange(0, BLOCK_N)
    n_mask = (offs_n >= lo) & (offs_n < hi)
    kv_off = offs_n[:, None] * stride_tok + head_off + offs_d[None, :]
    kv_mask = n_mask[:, None] & d_mask[None, :]
    k = tl.load(k_ptr + kv_off, mask=kv_mask, other=0.0)
    v = tl.load(v_ptr + kv_off, mask=kv_mask, other=0.0)
    s = tl.dot(q, tl.trans(k)) * qk_scale
    s = tl.where(n_mask[None, :], s, float("-inf"))
    m_new = tl.maximum(m_i, tl.max(s, 1))
    alpha = tl.math.exp2(m_i - m_new)
    p = tl.math.exp2(s - m_new[:, None])
    l_i = l_i * alpha + tl.sum(p, 1)
    acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
    return acc, m_new, l_i


@triton.jit
def window_attn_kernel(q_ptr, k_ptr, v_ptr, o_ptr, cu_ptr, n_tokens, n_windows, n_heads, head_dim, m_blocks,
                       sm_scale, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_D: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    stride_tok = n_heads * head_dim
    qk_scale = sm_scale * 1.4426950408889634
    offs_d = tl.arange(0, BLOCK_D)
    d_mask = offs_d < head_dim
    for task in range(pid, n_windows * m_blocks * n_heads, nprog):
        head = task % n_heads
        wm = task // n_heads
        win = wm // m_blocks
        lo = tl.load(cu_ptr + win)
        hi = tl.load(cu_ptr + win + 1)
        q_start = lo + (wm % m_blocks) * BLOCK_M
        if q_start < hi:
            offs_m = q_start + tl.arange(0, BLOCK_M)
            m_mask = offs_m < hi
            head_off = head * head_dim
            io_off = offs_m[:, None] * stride_tok + head_off + offs_d[None, :]
            io_mask = m_mask[:, None] & d_mask[None, :]
            q = tl.load(q_ptr + io_off, mask=io_mask, other=0.0)
            acc = tl.zeros([BLOCK_M, BLOCK_D], dtype=tl.float32)
            m_i = tl.full([BLOCK_M], -1.0e30, dtype=tl.float32)
            l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
            for n0 in range(lo, hi, BLOCK_N):
                acc, m_i, l_i = _attend_block(q, acc, m_i, l_i, k_ptr, v_ptr, n0, lo, hi, head_off, stride_tok,
                                              qk_scale, offs_d, d_mask, BLOCK_N)
            out = acc / l_i[:, None]
            tl.store(o_ptr + io_off, out.to(o_ptr.dtype.element_ty), mask=io_mask)


def run(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, cu_seqlens: torch.Tensor, max_seqlen: int) -> torch.Tensor:
    n_tokens, n_heads, head_dim = q.shape
    n_windows = cu_seqlens.numel() - 1
    out = torch.empty_like(q)
    m_blocks = triton.cdiv(max_seqlen, BLOCK_M)
    grid = (min(CORE_NUM, n_windows * m_blocks * n_heads),)
    window_attn_kernel[grid](q, k, v, out, cu_seqlens, n_tokens, n_windows, n_heads, head_dim, m_blocks,
                             head_dim ** -0.5, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N,
                             BLOCK_D=triton.next_power_of_2(head_dim))
    return out
