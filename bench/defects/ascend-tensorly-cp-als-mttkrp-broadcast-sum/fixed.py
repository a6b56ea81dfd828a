"""CP-ALS mode-0 MTTKRP, M[i, r] = sum_{j,k} X[i, j, k] B[j, r] C[k, r], as T = X[i] @ C then sum_j T * B."""
import torch
import triton
import triton.language as tl

_CUBE_CORES = 20


@triton.jit
def _mttkrp_mode0(x_ptr, b_ptr, c_ptr, m_ptr, I, J, K, R,
                  stride_xi, stride_xj, stride_bj, stride_ck, stride_mi,
                  BJ: tl.constexpr, BK: tl.constexpr, BR: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    offs_j = tl.arange(0, BJ)
    offs_k = tl.arange(0, BK)
    offs_r = tl.arange(0, BR)
    rmask = offs_r < R
    for i in range(pid, I, nprog):
        acc = tl.zeros((BR,), dtype=tl.float32)
        for j0 in range(0, J, BJ):
            jj = j0 + offs_j
            jmask = jj < J
            t = tl.zeros((BJ, BR), dtype=tl.float32)
            for k0 in range(0, K, BK):
                kk = k0 + offs_k
                kmask = kk < K
                x = tl.load(x_ptr + i * stride_xi + jj[:, None] * stride_xj + kk[None, :],
                            mask=jmask[:, None] & kmask[None, :], other=0.0)
                c = tl.load(c_ptr + kk[:, None] * stride_ck + offs_r[None, :],
                            mask=kmask[:, None] & rmask[None, :], other=0.0)
                t += tl.dot(x, c)
            b = tl.load(b_ptr + jj[:, None] * stride_bj + offs_r[None, :],
                        mask=jmask[:, None] & rmask[None, :], other=0.0)
            acc += tl.sum(t * b, axis=0)
        tl.store(m_ptr + i * stride_mi + offs_r, acc, mask=rmask)


def run(X: torch.Tensor, B: torch.Tensor, C: torch.Tensor) -> torch.Tensor:
    I, J, K = X.shape
    R = B.shape[1]
    M = torch.empty((I, R), device=X.device, dtype=X.dtype)
    BR = max(16, triton.next_power_of_2(R))
    grid = (min(_CUBE_CORES, I),)
    _mttkrp_mode0[grid](X, B, C, M, I, J, K, R,
                        X.stride(0), X.stride(1), B.stride(0), C.stride(0), M.stride(0),
                        BJ=128, BK=128, BR=BR)
    return M
