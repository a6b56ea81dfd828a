"""Factor-model risk attribution: exposures B^T w, Euler factor contributions x * (F x), specific variance."""
import torch
import triton
import triton.language as tl

_AI_CORES = 20


@triton.jit
def _factor_risk_fwd(w_ptr, b_ptr, f_ptr, d_ptr, x_ptr, c_ptr, s_ptr, P, N, K,
                     stride_w, stride_b, stride_f, stride_x, stride_c,
                     BP: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    n_off = tl.arange(0, BN)
    k_off = tl.arange(0, BK)
    kmask = k_off < K
    f = tl.load(f_ptr + k_off[:, None] * stride_f + k_off[None, :],
                mask=kmask[:, None] & kmask[None, :], other=0.0)
    for pb in range(pid, tl.cdiv(P, BP), nprog):
        rows = pb * BP + tl.arange(0, BP)
        rmask = rows < P
        x = tl.zeros([BP, BK], dtype=tl.float32)
        spec = tl.zeros([BP], dtype=tl.float32)
        for n0 in range(0, N, BN):
            cols = n0 + n_off
            nmask = cols < N
            w = tl.load(w_ptr + rows[:, None] * stride_w + cols[None, :],
                        mask=rmask[:, None] & nmask[None, :], other=0.0)
            b = tl.load(b_ptr + cols[:, None] * stride_b + k_off[None, :],
                        mask=nmask[:, None] & kmask[None, :], other=0.0)
            dv = tl.load(d_ptr + cols, mask=nmask, other=0.0)
            x = tl.dot(w, b, x)
            spec += tl.sum(w * w * dv[None, :], axis=1)
        fx = tl.dot(x, f)
        omask = rmask[:, None] & kmask[None, :]
        tl.store(x_ptr + rows[:, None] * stride_x + k_off[None, :], x, mask=omask)
        tl.store(c_ptr + rows[:, None] * stride_c + k_off[None, :], x * fx, mask=omask)
        tl.store(s_ptr + rows, spec, mask=rmask)


def run(W: torch.Tensor, B: torch.Tensor, F: torch.Tensor, d: torch.Tensor) -> tuple:
    P, N = W.shape
    K = B.shape[1]
    x = torch.empty((P, K), device=W.device, dtype=torch.float32)
    c = torch.empty((P, K), device=W.device, dtype=torch.float32)
    s = torch.empty((P,), device=W.device, dtype=torch.float32)
    BP, BN = 64, 128
    BK = max(16, triton.next_power_of_2(K))
    grid = (min(_AI_CORES, triton.cdiv(P, BP)),)
    _factor_risk_fwd[grid](W, B, F, d, x, c, s, P, N, K,
                           W.stride(0), B.stride(0), F.stride(0), x.stride(0), c.stride(0),
                           BP=BP, BN=BN, BK=BK)
    return x, c, s
