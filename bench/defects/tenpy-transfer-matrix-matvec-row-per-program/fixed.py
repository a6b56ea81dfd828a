"""MPS transfer-matrix power step v' = sum_s A_s^T v A_s as two strided contractions."""
import torch
import triton
import triton.language as tl

BLOCK_M = 64
BLOCK_N = 128
BLOCK_K = 32


@triton.jit
def _contract(a_ptr, b_ptr, c_ptr, M, N, K,
              stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
              BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    # C[m, n] = sum_k A[m, k] B[k, n], one BLOCK_M x BLOCK_N output tile per program
    m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    n = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    m_ok = m < M
    n_ok = n < N
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        k = k0 + tl.arange(0, BLOCK_K)
        k_ok = k < K
        a = tl.load(a_ptr + m[:, None] * stride_am + k[None, :] * stride_ak,
                    mask=m_ok[:, None] & k_ok[None, :], other=0.0)
        b = tl.load(b_ptr + k[:, None] * stride_bk + n[None, :] * stride_bn,
                    mask=k_ok[:, None] & n_ok[None, :], other=0.0)
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + m[:, None] * stride_cm + n[None, :] * stride_cn, acc, mask=m_ok[:, None] & n_ok[None, :])


def _launch(a, b, c, m, n, k, sa, sb, sc):
    grid = (triton.cdiv(m, BLOCK_M), triton.cdiv(n, BLOCK_N))
    _contract[grid](a, b, c, m, n, k, sa[0], sa[1], sb[0], sb[1], sc[0], sc[1],
                    BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K, num_warps=4, num_stages=3)


def run(a: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    chi, d, _ = a.shape
    x = torch.empty(chi, d * chi, device=a.device, dtype=torch.float32)
    out = torch.empty(chi, chi, device=a.device, dtype=torch.float32)
    # X[a, (s, b')] = sum_a' v[a, a'] A[a', (s, b')]
    _launch(v, a, x, chi, d * chi, chi, (chi, 1), (d * chi, 1), (d * chi, 1))
    # v'[b, b'] = sum_(a, s) A[(a, s), b] X[(a, s), b']: A read transposed through its strides
    _launch(a, x, out, chi, chi, d * chi, (1, chi), (chi, 1), (chi, 1))
    return out
