"""Multi-LoRA SGMV: the batch is split into its adapter segments on the host and each segment runs
a shrink and an expand launch with its own adapter's weights."""
import torch
import triton
import triton.language as tl


@triton.jit
def lora_shrink_kernel(x_ptr, a_ptr, t_ptr, M, K, R: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_r = tl.arange(0, R)
    offs_k = tl.arange(0, BLOCK_K)
    m_valid = offs_m < M
    rows = offs_m.to(tl.int64)
    acc = tl.zeros([BLOCK_M, R], dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        kk = k0 + offs_k
        k_valid = kk < K
        x = tl.load(x_ptr + rows[:, None] * K + kk[None, :], mask=m_valid[:, None] & k_valid[None, :], other=0.0)
        a = tl.load(a_ptr + offs_r[None, :] * K + kk[:, None], mask=k_valid[:, None], other=0.0)
        acc += tl.dot(x, a)
    tl.store(t_ptr + rows[:, None] * R + offs_r[None, :], acc, mask=m_valid[:, None])


@triton.jit
def lora_expand_kernel(t_ptr, b_ptr, y_ptr, M, N, scaling,
                       R: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_r = tl.arange(0, R)
    m_valid = offs_m < M
    n_valid = offs_n < N
    rows = offs_m.to(tl.int64)
    t = tl.load(t_ptr + rows[:, None] * R + offs_r[None, :], mask=m_valid[:, None], other=0.0)
    b = tl.load(b_ptr + offs_n[None, :] * R + offs_r[:, None], mask=n_valid[None, :], other=0.0)
    y = tl.dot(t.to(b.dtype), b) * scaling
    tl.store(y_ptr + rows[:, None] * N + offs_n[None, :], y.to(y_ptr.dtype.element_ty),
             mask=m_valid[:, None] & n_valid[None, :])


def run(x, lora_a, lora_b, seg_indptr, seg_lora, seg_lens, seg_lora_ids, scaling):
    T, K = x.shape
    NL, N, R = lora_b.shape
    tmp = torch.empty(T, R, device=x.device, dtype=torch.float32)
    y = torch.empty(T, N, device=x.device, dtype=x.dtype)
    BLOCK_M, BLOCK_K, BLOCK_N = 64, 256, 128
    start = 0
    for seg_len, lid in zip(seg_lens, seg_lora_ids, strict=True):
        xs, ts, ys = x[start:start + seg_len], tmp[start:start + seg_len], y[start:start + seg_len]
        m_blocks = triton.cdiv(seg_len, BLOCK_M)
        lora_shrink_kernel[(m_blocks,)](xs, lora_a[lid], ts, seg_len, K,
                                        R=R, BLOCK_M=BLOCK_M, BLOCK_K=BLOCK_K, num_warps=4, num_stages=3)
        lora_expand_kernel[(m_blocks, triton.cdiv(N, BLOCK_N))](ts, lora_b[lid], ys, seg_len, N, scaling,
                                                                R=R, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N,
                                                                num_warps=4, num_stages=2)
        start += seg_len
    return y
