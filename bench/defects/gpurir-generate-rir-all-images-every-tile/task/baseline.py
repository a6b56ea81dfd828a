"""Image-source RIR synthesis (gpuRIR generateRIR): one Hann-windowed sinc per image, summed per sample."""
import torch
import triton
import triton.language as tl

PI = tl.constexpr(3.141592653589793)
BLOCK_T = 64
BLOCK_I = 32


@triton.jit
def _lower_bound(row, n, x):
    """First index i in [0, n) with row[i] >= x (n when none): row is sorted ascending."""
    lo = n * 0
    hi = n
    while lo < hi:
        mid = (lo + hi) // 2
        right = tl.load(row + mid) < x
        lo = tl.where(right, mid + 1, lo)
        hi = tl.where(right, hi, mid)
    return lo


@triton.jit
def _ism_rir_tile(amp, tau, rir, n_img, n_samples, half_tw, two_pi_over_tw,
                  BLOCK_T: tl.constexpr, BLOCK_I: tl.constexpr):
    tile = tl.program_id(0)
    pair = tl.program_id(1)
    t = tile * BLOCK_T + tl.arange(0, BLOCK_T)
    tf = t.to(tl.float32)
    amp_row = amp + pair * n_img
    tau_row = tau + pair * n_img
    # Only images whose window reaches this tile: tau in [t0 - Tw/2, t0 + BLOCK_T - 1 + Tw/2).
    t0 = (tile * BLOCK_T).to(tl.float32)
    first = _lower_bound(tau_row, n_img, t0 - half_tw)
    last = _lower_bound(tau_row, n_img, t0 + (BLOCK_T - 1) + half_tw)
    acc = tl.zeros([BLOCK_T, BLOCK_I], dtype=tl.float32)
    for i0 in range(first, last, BLOCK_I):
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
