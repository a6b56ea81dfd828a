"""GQA split-KV decode: each query head reads its group's key/value head in place (kv head = h // group)."""
import torch
import triton
import triton.language as tl


@triton.jit
def decode_split_kernel(q_ptr, k_ptr, v_ptr, m_ptr, l_ptr, acc_ptr, S, qk_scale, NUM_SPLITS, GROUP,
                        SPLIT: tl.constexpr, HEAD_DIM: tl.constexpr, BLOCK_N: tl.constexpr):
    bh = tl.program_id(0).to(tl.int64)
    kv_bh = bh // GROUP  # heads are [B, H]: query head h of batch b reads kv head (b * H + h) // GROUP
    split = tl.program_id(1)
    dims = tl.arange(0, HEAD_DIM)
    q = tl.load(q_ptr + bh * HEAD_DIM + dims).to(tl.float32)
    base = kv_bh * S * HEAD_DIM
    m_i = -float("inf")
    l_i = 0.0
    acc = tl.zeros([HEAD_DIM], dtype=tl.float32)
    for start in range(split * SPLIT, split * SPLIT + SPLIT, BLOCK_N):
        keys = start + tl.arange(0, BLOCK_N)
        offs = base + keys[:, None] * HEAD_DIM + dims[None, :]
        k = tl.load(k_ptr + offs, mask=keys[:, None] < S, other=0.0).to(tl.float32)
        s = tl.where(keys < S, tl.sum(q[None, :] * k, axis=1) * qk_scale, -float("inf"))
        m_new = tl.maximum(m_i, tl.max(s, axis=0))
        alpha = tl.where(m_new == -float("inf"), 1.0, tl.math.exp2(m_i - m_new))
        p = tl.where(keys < S, tl.math.exp2(s - m_new), 0.0)
        v = tl.load(v_ptr + offs, mask=keys[:, None] < S, other=0.0).to(tl.float32)
        l_i = l_i * alpha + tl.sum(p, axis=0)
        acc = acc * alpha + tl.sum(p[:, None] * v, axis=0)
        m_i = m_new
    part = bh * NUM_SPLITS + split
    tl.store(m_ptr + part, m_i)
    tl.store(l_ptr + part, l_i)
    tl.store(acc_ptr + part * HEAD_DIM + dims, acc)


@triton.jit
def decode_merge_kernel(m_ptr, l_ptr, acc_ptr, o_ptr, NUM_SPLITS, HEAD_DIM: tl.constexpr,
                        BLOCK_S: tl.constexpr):
    bh = tl.program_id(0).to(tl.int64)
    splits = tl.arange(0, BLOCK_S)
    ok = splits < NUM_SPLITS
    m = tl.load(m_ptr + bh * NUM_SPLITS + splits, mask=ok, other=-float("inf"))
    lsum = tl.load(l_ptr + bh * NUM_SPLITS + splits, mask=ok, other=0.0)
    dims = tl.arange(0, HEAD_DIM)
    acc = tl.load(acc_ptr + (bh * NUM_SPLITS + splits)[:, None] * HEAD_DIM + dims[None, :],
                  mask=ok[:, None], other=0.0)
    m_max = tl.max(m, axis=0)
    w = tl.where(ok, tl.math.exp2(m - m_max), 0.0)
    out = tl.sum(w[:, None] * acc, axis=0) / tl.sum(w * lsum, axis=0)
    tl.store(o_ptr + bh * HEAD_DIM + dims, out.to(o_ptr.dtype.element_ty))


def run(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    B, H, D = q.shape
    S = k.shape[2]
    group = H // k.shape[1]
    split = 1024
    num_splits = triton.cdiv(S, split)
    m = torch.empty((B * H, num_splits), dtype=torch.float32, device=q.device)
    lsum = torch.empty_like(m)
    acc = torch.empty((B * H, num_splits, D), dtype=torch.float32, device=q.device)
    o = torch.empty_like(q)
    qk_scale = D ** -0.5 * 1.4426950408889634
    decode_split_kernel[(B * H, num_splits)](q, k, v, m, lsum, acc, S, qk_scale, num_splits, group,
                                             SPLIT=split, HEAD_DIM=D, BLOCK_N=64)
    decode_merge_kernel[(B * H,)](m, lsum, acc, o, num_splits, HEAD_DIM=D,
                                  BLOCK_S=triton.next_power_of_2(num_splits))
    return o
