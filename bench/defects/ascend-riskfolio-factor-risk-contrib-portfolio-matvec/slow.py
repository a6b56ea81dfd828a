"""Factor-model risk attribution: exposures B^T w, Euler factor contributions x * (F x), specific variance."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _factor_risk_fwd(w_ptr, b_ptr, f_ptr, d_ptr, x_ptr, c_ptr, s_ptr, P, N, K,
                     stride_w, stride_b, stride_f, stride_x, stride_c,
                     BN: tl.constexpr, BK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    n_off = tl.arange(0, BN)
    k_off = tl.arange(0, BK)
    kmask = k_off < K
    f = tl.load(f_ptr + k_off[:, None] * stride_f + k_off[None, :],
                mask=kmask[:, None] & kmask[None, :], other=0.0)
    # one portfolio at a time: x = B^T w as a matrix-vector product on the vector unit
    for p in range(pid, P, nprog):
        x = tl.zeros([BK], dtype=tl.float32)
        spec = tl.zeros([BN], dtype=tl.float32)
        for n0 in range(0, N, BN):
            cols = n0 + n_off
            nmask = cols < N
            w = tl.load(w_ptr + p * stride_w + cols, mask=nmask, other=0.0)
            b = tl.load(b_ptr + cols[:, None] * stride_b + k_off[None, :],
                        mask=nmask[:, None] & kmask[None, :], other=0.0)
            dv = tl.load(d_ptr + cols, mask=nmask, other=0.0)
            x += tl.sum(w[:, None] * b, axis=0)
            spec += w * w * dv
        fx = tl.sum(x[:, None] * f, axis=0)  # F is symmetric: (F x)_k = sum_j x_j F[j, k]
        tl.store(x_ptr + p * stride_x + k_off, x, mask=kmask)
        tl.store(c_ptr + p * stride_c + k_off, x * fx, mask=kmask)
        tl.store(s_ptr + p, tl.sum(spec, axis=0))


def run(W: torch.Tensor, B: torch.Tensor, F: torch.Tensor, d: torch.Tensor) -> tuple:
    P, N = W.shape
    K = B.shape[1]
    x = torch.empty((P, K), device=W.device, dtype=torch.float32)
    c = torch.empty((P, K), device=W.device, dtype=torch.float32)
    s = torch.empty((P,), device=W.device, dtype=torch.float32)
    BN = 128
    BK = max(16, triton.next_power_of_2(K))
    grid = (min(_VECTOR_CORES, P),)
    _factor_risk_fwd[grid](W, B, F, d, x, c, s, P, N, K,
                           W.stride(0), B.stride(0), F.stride(0), x.stride(0), c.stride(0),
                           BN=BN, BK=BK)
    return x, c, s
