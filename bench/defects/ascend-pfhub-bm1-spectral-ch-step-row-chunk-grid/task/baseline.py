"""Semi-implicit Fourier-spectral Cahn-Hilliard step on the rfft2 spectrum (float-pair layout)."""
import math

import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _ch_spectral_step(c_hat, g_hat, out, ny, row_len, half_ny, dkx, dky, a, b, d,
                      BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    n_chunks = tl.cdiv(row_len, BLOCK)
    for blk in range(pid, ny * n_chunks, nprog):
        r = blk // n_chunks
        q = (blk % n_chunks) * BLOCK + tl.arange(0, BLOCK)
        valid = q < row_len
        # ky of this spectrum row (fftfreq order), kx of each float column (re/im share a mode)
        ky = tl.where(r < half_ny, r, r - ny).to(tl.float32) * dky
        kx = (q >> 1).to(tl.float32) * dkx
        k2 = kx * kx + ky * ky
        ch = tl.load(c_hat + r * row_len + q, mask=valid, other=0.0)
        gh = tl.load(g_hat + r * row_len + q, mask=valid, other=0.0)
        ak2 = a * k2
        new = (ch * (1.0 + ak2) - b * k2 * gh) / (1.0 + ak2 + d * k2 * k2)
        tl.store(out + r * row_len + q, new, mask=valid)


def run(c_hat: torch.Tensor, g_hat: torch.Tensor, nx: int, dx: float, dt: float, mobility: float,
        kappa: float, stab: float) -> torch.Tensor:
    ny, n_modes, _ = c_hat.shape
    c_hat, g_hat = c_hat.contiguous(), g_hat.contiguous()
    out = torch.empty_like(c_hat)
    row_len = 2 * n_modes
    BLOCK = min(1024, triton.next_power_of_2(row_len))
    grid = (min(_VECTOR_CORES, ny * triton.cdiv(row_len, BLOCK)),)
    _ch_spectral_step[grid](c_hat, g_hat, out, ny, row_len, (ny + 1) // 2,
                            2.0 * math.pi / (nx * dx), 2.0 * math.pi / (ny * dx),
                            dt * mobility * stab, dt * mobility, dt * mobility * kappa, BLOCK=BLOCK)
    return out
