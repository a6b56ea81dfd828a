"""Room.simulate: every source convolved with its RIR to every microphone, summed per microphone."""
import torch
import triton
import triton.language as tl

BLOCK_T = 64
BLOCK_K = 16


@triton.jit
def _array_mix(x, h, y, n_mics, n_src, n_sig, n_taps, n_out,
               BLOCK_T: tl.constexpr, BLOCK_K: tl.constexpr, BLOCK_M: tl.constexpr):
    pid = tl.program_id(0)
    t = pid * BLOCK_T + tl.arange(0, BLOCK_T)
    m = tl.arange(0, BLOCK_M)
    m_ok = m < n_mics
    kk = tl.arange(0, BLOCK_K)
    acc = tl.zeros([BLOCK_T, BLOCK_M], dtype=tl.float32)
    for s in range(n_src):
        x_src = x + s * n_sig
        h_src = h + s * n_taps
        for k0 in range(0, n_taps, BLOCK_K):
            k = k0 + kk
            lag = t[:, None] - k[None, :]
            xs = tl.load(x_src + lag, mask=(lag >= 0) & (lag < n_sig), other=0.0)           # [BLOCK_T, BLOCK_K]
            hs = tl.load(h_src + m[:, None] * (n_src * n_taps) + k[None, :],
                         mask=m_ok[:, None] & (k[None, :] < n_taps), other=0.0)            # [BLOCK_M, BLOCK_K]
            acc = tl.dot(xs, tl.trans(hs), acc)
    tl.store(y + m[None, :] * n_out + t[:, None], acc, mask=(t[:, None] < n_out) & m_ok[None, :])


def run(x: torch.Tensor, h: torch.Tensor) -> torch.Tensor:
    S, T = x.shape
    M, _, K = h.shape
    n_out = T + K - 1
    y = torch.empty((M, n_out), device=x.device, dtype=torch.float32)
    block_m = max(16, triton.next_power_of_2(M))
    grid = (triton.cdiv(n_out, BLOCK_T),)
    _array_mix[grid](x, h, y, M, S, T, K, n_out,
                     BLOCK_T=BLOCK_T, BLOCK_K=BLOCK_K, BLOCK_M=block_m, num_warps=8)
    return y
