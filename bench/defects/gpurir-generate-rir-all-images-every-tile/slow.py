"""Image-source RIR synthesis (gpuRIR generateRIR): one Hann-windowed sinc per image, summed per sample."""
import torch
import triton
import triton.language as tl

PI = tl.constexpr(3.141592653589793)
BLOCK_T = 64
BLOCK_I = 32


@triton.jit
def _ism_rir_tile(amp, tau, rir, n_img, n_samples, half_tw, two_pi_over_tw,
                  BLOCK_T: tl.constexpr, BLOCK_I: tl.constexpr):
    tile = tl.program_id(0)
    pair = tl.program_id(1)
    t = tile * BLOCK_T + tl.arange(0, BLOCK_T)
    tf = t.to(tl.float32)
    amp_row = amp + pair * n_img
    tau_row = tau + pair * n_img
    acc = tl.zeros([BLOCK_T, BLOCK_I], dtype=tl.float32)
    for i0 in range(0, n_img, BLOCK_I):
        i = i0 + tl.arange(0, BLOCK_I)
        ok = i < n_img
        a = tl.load(amp_row + i, mask=ok, other=0.0)
        ta = tl.load(tau_row + i, mask=ok, other=0.0)
        d = tf[:, None] - ta[None, :]
        near = tl.abs(d) < half_tw
        win = 0.5 + 0.5 * tl.cos(d * two_pi_over_tw)
        x = PI * d
        sinc = tl.where(d == 0.0, 1.0, tl.sin(x) / x)
        acc += tl.where(near, a[None, :] * win * sinc, 0.0)
    tl.store(rir + pair * n_samples + t, tl.sum(acc, axis=1), mask=t < n_samples)


def run(amp: torch.Tensor, tau: torch.Tensor, n_samples: int, tw: float) -> torch.Tensor:
    P, N = amp.shape
    rir = torch.empty((P, n_samples), device=amp.device, dtype=torch.float32)
    grid = (triton.cdiv(n_samples, BLOCK_T), P)
    _ism_rir_tile[grid](amp, tau, rir, N, n_samples, tw / 2.0, 2.0 * 3.141592653589793 / tw,
                        BLOCK_T=BLOCK_T, BLOCK_I=BLOCK_I, num_warps=4)
    return rir
