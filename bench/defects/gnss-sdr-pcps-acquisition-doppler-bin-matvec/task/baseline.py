"""PCPS acquisition grid: circular correlation of the Doppler-wiped signal with every PRN's code replica."""
import torch
import triton
import triton.language as tl


@triton.jit
def _pcps_grid(sig, wipe, codes, out, N, D, inv_n2,
               BLOCK_D: tl.constexpr, BLOCK_T: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_t = tl.program_id(0)
    prn = tl.program_id(1)
    taus = pid_t * BLOCK_T + tl.arange(0, BLOCK_T)
    bins = tl.arange(0, BLOCK_D)
    ks = tl.arange(0, BLOCK_K)
    tau_ok = taus < N
    bin_ok = bins < D
    code_row = codes + prn * N
    acc_re = tl.zeros([BLOCK_D, BLOCK_T], dtype=tl.float32)
    acc_im = tl.zeros([BLOCK_D, BLOCK_T], dtype=tl.float32)
    for k0 in range(0, N, BLOCK_K):
        m = k0 + ks
        m_ok = m < N
        xr = tl.load(sig + 2 * m, mask=m_ok, other=0.0)
        xi = tl.load(sig + 2 * m + 1, mask=m_ok, other=0.0)
        w_off = (bins[:, None] * N + m[None, :]) * 2
        w_ok = bin_ok[:, None] & m_ok[None, :]
        wr = tl.load(wipe + w_off, mask=w_ok, other=0.0)
        wi = tl.load(wipe + w_off + 1, mask=w_ok, other=0.0)
        yr = xr[None, :] * wr - xi[None, :] * wi
        yi = xr[None, :] * wi + xi[None, :] * wr
        lag = m[:, None] - taus[None, :]
        lag = tl.where(lag < 0, lag + N, lag)
        c = tl.load(code_row + lag, mask=m_ok[:, None] & tau_ok[None, :], other=0.0)
        acc_re = tl.dot(yr, c, acc_re)
        acc_im = tl.dot(yi, c, acc_im)
    power = (acc_re * acc_re + acc_im * acc_im) * inv_n2
    dst = out + (prn * D + bins[:, None]) * N + taus[None, :]
    tl.store(dst, power, mask=bin_ok[:, None] & tau_ok[None, :])


def run(signal: torch.Tensor, wipeoffs: torch.Tensor, codes: torch.Tensor) -> torch.Tensor:
    N = signal.shape[0]
    D = wipeoffs.shape[0]
    P = codes.shape[0]
    out = torch.empty((P, D, N), device=signal.device, dtype=torch.float32)
    BLOCK_D = max(16, triton.next_power_of_2(D))
    BLOCK_T, BLOCK_K = 64, 64
    grid = (triton.cdiv(N, BLOCK_T), P)
    _pcps_grid[grid](signal, wipeoffs, codes, out, N, D, 1.0 / float(N) ** 2,
                     BLOCK_D=BLOCK_D, BLOCK_T=BLOCK_T, BLOCK_K=BLOCK_K, num_warps=4)
    return out
