"""GQA paged decode attention for the Atlas A2 (910B): the query heads of one GQA group are the M side
of the cube matmuls; each request's pages are split into ranges so that (request, kv head, range)
programs fill the cube cores, and a second kernel merges the ranges by their log-sum-exp."""
import torch
import triton
import triton.language as tl

NUM_CUBE_CORES = 20          # Atlas A2 (910B3): 20 AI cores, one cube unit each
PROGRAMS_PER_CORE = 4


@triton.jit
def _load_page(cache_ptr, blk, kv_head, tok, dim, valid, stride_blk, stride_tok, stride_head):
    ptrs = cache_ptr + blk * stride_blk + tok[:, None] * stride_tok + kv_head * stride_head + dim[None, :]
    return tl.load(ptrs, mask=valid[:, None], other=0.0)


@triton.jit
def _attend_page(q, k, v, valid, m_i, l_i, acc, sm_scale):
    scores = tl.dot(q, tl.trans(k)) * sm_scale
    scores = tl.where(valid[None, :], scores, float("-inf"))
    m_new = tl.maximum(m_i, tl.max(scores, axis=1))
    alpha = tl.exp(m_i - m_new)
    p = tl.exp(scores - m_new[:, None])
    l_i = l_i * alpha + tl.sum(p, axis=1)
    acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
    return m_new, l_i, acc


@triton.jit
def paged_decode_split_kernel(q_ptr, k_cache, v_cache, block_table, seq_lens, part_o, part_lse, sm_scale,
                              pages_per_split,
                              stride_qb, stride_qh, stride_bt, stride_blk, stride_tok, stride_head,
                              stride_pb, stride_ph, stride_ps, stride_lb, stride_lh,
                              GROUP: tl.constexpr, BLOCK_H: tl.constexpr, HEAD_DIM: tl.constexpr,
                              PAGE: tl.constexpr):
    b = tl.program_id(0)
    kv_head = tl.program_id(1)
    split = tl.program_id(2)
    seq_len = tl.load(seq_lens + b)
    heads = tl.arange(0, BLOCK_H)
    head_mask = heads < GROUP
    dim = tl.arange(0, HEAD_DIM)
    tok = tl.arange(0, PAGE)
    q_rows = kv_head * GROUP + heads
    q = tl.load(q_ptr + b * stride_qb + q_rows[:, None] * stride_qh + dim[None, :],
                mask=head_mask[:, None], other=0.0)

    m_i = tl.full([BLOCK_H], float("-inf"), dtype=tl.float32)
    l_i = tl.zeros([BLOCK_H], dtype=tl.float32)
    acc = tl.zeros([BLOCK_H, HEAD_DIM], dtype=tl.float32)
    num_pages = tl.cdiv(seq_len, PAGE)
    first = split * pages_per_split
    last = tl.minimum(first + pages_per_split, num_pages)
    for p in range(first, last):
        blk = tl.load(block_table + b * stride_bt + p)
        valid = p * PAGE + tok < seq_len
        k = _load_page(k_cache, blk, kv_head, tok, dim, valid, stride_blk, stride_tok, stride_head)
        v = _load_page(v_cache, blk, kv_head, tok, dim, valid, stride_blk, stride_tok, stride_head)
        m_i, l_i, acc = _attend_page(q, k, v, valid, m_i, l_i, acc, sm_scale)

    seen = l_i > 0
    lse = tl.where(seen, m_i + tl.log(tl.where(seen, l_i, 1.0)), float("-inf"))
    out = acc / tl.where(seen, l_i, 1.0)[:, None]
    tl.store(part_o + b * stride_pb + q_rows[:, None] * stride_ph + split * stride_ps + dim[None, :],
             out, mask=head_mask[:, None])
    tl.store(part_lse + b * stride_lb + q_rows * stride_lh + split, lse, mask=head_mask)


@triton.jit
def merge_splits_kernel(part_o, part_lse, out_ptr, num_splits,
                        stride_pb, stride_ph, stride_ps, stride_lb, stride_lh, stride_ob, stride_oh,
                        GROUP: tl.constexpr, BLOCK_H: tl.constexpr, HEAD_DIM: tl.constexpr):
    b = tl.program_id(0)
    kv_head = tl.program_id(1)
    heads = tl.arange(0, BLOCK_H)
    head_mask = heads < GROUP
    dim = tl.arange(0, HEAD_DIM)
    q_rows = kv_head * GROUP + heads
    lse_ptrs = part_lse + b * stride_lb + q_rows * stride_lh

    lse_max = tl.full([BLOCK_H], float("-inf"), dtype=tl.float32)
    for s in range(0, num_splits):
        lse_max = tl.maximum(lse_max, tl.load(lse_ptrs + s, mask=head_mask, other=float("-inf")))
    lse_max = tl.where(head_mask, lse_max, 0.0)

    denom = tl.zeros([BLOCK_H], dtype=tl.float32)
    acc = tl.zeros([BLOCK_H, HEAD_DIM], dtype=tl.float32)
    for s in range(0, num_splits):
        w = tl.exp(tl.load(lse_ptrs + s, mask=head_mask, other=float("-inf")) - lse_max)
        o = tl.load(part_o + b * stride_pb + q_rows[:, None] * stride_ph + s * stride_ps + dim[None, :],
                    mask=head_mask[:, None], other=0.0)
        denom += w
        acc += w[:, None] * o
    out = acc / tl.where(head_mask, denom, 1.0)[:, None]
    tl.store(out_ptr + b * stride_ob + q_rows[:, None] * stride_oh + dim[None, :],
             out.to(out_ptr.dtype.element_ty), mask=head_mask[:, None])


def run(q: torch.Tensor, k_cache: torch.Tensor, v_cache: torch.Tensor, block_table: torch.Tensor,
        seq_lens: torch.Tensor, sm_scale: float) -> torch.Tensor:
    batch, num_heads, head_dim = q.shape
    page, num_kv_heads = k_cache.shape[1], k_cache.shape[2]
    group = num_heads // num_kv_heads
    out = torch.empty_like(q)
    block_h = max(16, triton.next_power_of_2(group))

    max_pages = block_table.shape[1]
    wanted = triton.cdiv(PROGRAMS_PER_CORE * NUM_CUBE_CORES, batch * num_kv_heads)
    pages_per_split = triton.cdiv(max_pages, max(1, min(max_pages, wanted)))
    num_splits = triton.cdiv(max_pages, pages_per_split)
    part_o = torch.empty((batch, num_heads, num_splits, head_dim), dtype=torch.float32, device=q.device)
    part_lse = torch.empty((batch, num_heads, num_splits), dtype=torch.float32, device=q.device)

    paged_decode_split_kernel[(batch, num_kv_heads, num_splits)](
        q, k_cache, v_cache, block_table, seq_lens, part_o, part_lse, sm_scale, pages_per_split,
        q.stride(0), q.stride(1), block_table.stride(0),
        k_cache.stride(0), k_cache.stride(1), k_cache.stride(2),
        part_o.stride(0), part_o.stride(1), part_o.stride(2), part_lse.stride(0), part_lse.stride(1),
        GROUP=group, BLOCK_H=block_h, HEAD_DIM=head_dim, PAGE=page,
    )
    merge_splits_kernel[(batch, num_kv_heads)](
        part_o, part_lse, out, num_splits,
        part_o.stride(0), part_o.stride(1), part_o.stride(2), part_lse.stride(0), part_lse.stride(1),
        out.stride(0), out.stride(1),
        GROUP=group, BLOCK_H=block_h, HEAD_DIM=head_dim,
    )
    return out
