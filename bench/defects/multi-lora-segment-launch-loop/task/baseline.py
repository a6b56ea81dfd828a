"""Multi-LoRA SGMV: one shrink and one expand launch cover every adapter segment of the batch."""
import torch
import triton
import triton.language as tl


@triton.jit
def _segment(indptr_ptr, lora_ptr, seg):
    start = tl.load(indptr_ptr + seg)
    end = tl.load(indptr_ptr + seg + 1)
    lid = tl.load(lora_ptr + seg)
    return start, end - start, lid


@triton.jit
def sgmv_shrink_kernel(x_ptr, a_ptr, t_ptr, indptr_ptr, lora_ptr, K,
                       R: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_K: tl.constexpr):
    seg = tl.program_id(0)
    pid_m = tl.program_id(1)
    start, seg_len, lid = _segment(indptr_ptr, lora_ptr, seg)
    if pid_m * BLOCK_M >= seg_len:
        return
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_r = tl.arange(0, R)
    offs_k = tl.arange(0, BLOCK_K)
    m_valid = offs_m < seg_len
    rows = (start + offs_m).to(tl.int64)
    a_base = a_ptr + lid.to(tl.int64) * R * K
    acc = tl.zeros([BLOCK_M, R], dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        kk = k0 + offs_k
        k_valid = kk < K
        x = tl.load(x_ptr + rows[:, None] * K + kk[None, :], mask=m_valid[:, None] & k_valid[None, :], other=0.0)
        a = tl.load(a_base + offs_r[None, :] * K + kk[:, None], mask=k_valid[:, None], other=0.0)
        acc += tl.dot(x, a)
    tl.store(t_ptr + rows[:, None] * R + offs_r[None, :], acc, mask=m_valid[:, None])


@triton.jit
def sgmv_expand_kernel(t_ptr, b_ptr, y_ptr, indptr_ptr, lora_ptr, N, scaling,
                       R: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    seg = tl.program_id(0)
    pid_m = tl.program_id(1)
    pid_n = tl.program_id(2)
    start, seg_len, lid = _segment(indptr_ptr, lora_ptr, seg)
    if pid_m * BLOCK_M >= seg_len:
        return
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_r = tl.arange(0, R)
    m_valid = offs_m < seg_len
    n_valid = offs_n < N
    rows = (start + offs_m).to(tl.int64)
    t = tl.load(t_ptr + rows[:, None] * R + offs_r[None, :], mask=m_valid[:, None], other=0.0)
    b = tl.load(b_ptr + lid.to(tl.int64) * N * R + offs_n[None, :] * R + offs_r[:, None], mask=n_valid[None, :],
                other=0.0)
    y = tl.dot(t.to(b.dtype), b) * scaling
    tl.store(y_ptr + rows[:, None] * N + offs_n[None, :], y.to(y_ptr.dtype.element_ty),
             mask=m_valid[:, None] & n_valid[None, :])


def run(x, lora_a, lora_b, seg_indptr, seg_lora, seg_lens, seg_lora_ids, scaling):
    T, K = x.shape
    NL, N, R = lora_b.shape
    tmp = torch.empty(T, R, device=x.device, dtype=torch.float32)
    y = torch.empty(T, N, device=x.device, dtype=x.dtype)
    BLOCK_M, BLOCK_K, BLOCK_N = 64, 256, 128
    num_segs = len(seg_lens)
    m_blocks = triton.cdiv(max(seg_lens), BLOCK_M)
    sgmv_shrink_kernel[(num_segs, m_blocks)](x, lora_a, tmp, seg_indptr, seg_lora, K,
                                             R=R, BLOCK_M=BLOCK_M, BLOCK_K=BLOCK_K, num_warps=4, num_stages=3)
    sgmv_expand_kernel[(num_segs, m_blocks, triton.cdiv(N, BLOCK_N))](tmp, lora_b, y, seg_indptr, seg_lora, N,
                                                                       scaling, R=R, BLOCK_M=BLOCK_M,
                                                                       BLOCK_N=BLOCK_N, num_warps=4, num_stages=2)
    return y
