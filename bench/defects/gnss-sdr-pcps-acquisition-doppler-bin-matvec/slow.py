"""PCPS acquisition grid: circular correlation of the Doppler-wiped signal with every PRN's code replica."""
import torch
import triton
import triton.language as tl


@triton.jit
def _pcps_bin(sig, wipe, codes, out, N, D, inv_n2, BLOCK_T: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_t = tl.program_id(0)
    dop = tl.program_id(1)
    prn = tl.program_id(2)
    taus = pid_t * BLOCK_T + tl.arange(0, BLOCK_T)
    ks = tl.arange(0, BLOCK_K)
    tau_ok = taus < N
    code_row = codes + prn * N
    wipe_row = wipe + dop * N * 2
    acc_re = tl.zeros([BLOCK_T], dtype=tl.float32)
    acc_im = tl.zeros([BLOCK_T], dtype=tl.float32)
    for k0 in range(0, N, BLOCK_K):
        m = k0 + ks
        m_ok = m < N
        xr = tl.load(sig + 2 * m, mask=m_ok, other=0.0)
        xi = tl.load(sig + 2 * m + 1, mask=m_ok, other=0.0)
        wr = tl.load(wipe_row + 2 * m, mask=m_ok, other=0.0)
        wi = tl.load(wipe_row + 2 * m + 1, mask=m_ok, other=0.0)
        yr = xr * wr - xi * wi
        yi = xr * wi + xi * wr
        lag = m[:, None] - taus[None, :]
        lag = tl.where(lag < 0, lag + N, lag)
        c = tl.load(code_row + lag, mask=m_ok[:, None] & tau_ok[None, :], other=0.0)
        acc_re += tl.sum(yr[:, None] * c, axis=0)
        acc_im += tl.sum(yi[:, None] * c, axis=0)
    power = (acc_re * acc_re + acc_im * acc_im) * inv_n2
    tl.store(out + (prn * D + dop) * N + taus, power, mask=tau_ok)


def run(signal: torch.Tensor, wipeoffs: torch.Tensor, codes: torch.Tensor) -> torch.Tensor:
    N = signal.shape[0]
    D = wipeoffs.shape[0]
    P = codes.shape[0]
    out = torch.empty((P, D, N), device=signal.device, dtype=torch.float32)
    BLOCK_T, BLOCK_K = 128, 32
    grid = (triton.cdiv(N, BLOCK_T), D, P)
    _pcps_bin[grid](signal, wipeoffs, codes, out, N, D, 1.0 / float(N) ** 2,
                    BLOCK_T=BLOCK_T, BLOCK_K=BLOCK_K, num_warps=4)
    return out
