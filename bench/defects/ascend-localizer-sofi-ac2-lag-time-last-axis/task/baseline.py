"""SOFI second-order auto-cumulant with a time lag on Ascend: mean image and lagged centred product per pixel."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _sofi_ac2_lag(movie, mean_out, ac2_out, n_frames, n_pix, lag,
                  BP: tl.constexpr, BT: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    tt = tl.arange(0, BT)
    for pb in range(pid, tl.cdiv(n_pix, BP), nprog):
        pix = pb * BP + tl.arange(0, BP)
        pmask = pix < n_pix
        # pass 1: mean over the frames, frames along the tile's leading axis, pixels contiguous
        acc = tl.zeros((BT, BP), dtype=tl.float32)
        for t0 in range(0, n_frames, BT):
            t = t0 + tt
            x = tl.load(movie + t[:, None] * n_pix + pix[None, :],
                        mask=(t[:, None] < n_frames) & pmask[None, :], other=0.0)
            acc += x
        mean = tl.sum(acc, axis=0) / n_frames
        # pass 2: lagged product of the fluctuations
        n_pairs = n_frames - lag
        acc = tl.zeros((BT, BP), dtype=tl.float32)
        for t0 in range(0, n_pairs, BT):
            t = t0 + tt
            mask = (t[:, None] < n_pairs) & pmask[None, :]
            a = tl.load(movie + t[:, None] * n_pix + pix[None, :], mask=mask, other=0.0)
            b = tl.load(movie + (t[:, None] + lag) * n_pix + pix[None, :], mask=mask, other=0.0)
            w = tl.where(t < n_pairs, 1.0, 0.0)
            acc += (a - mean[None, :]) * (b - mean[None, :]) * w[:, None]
        ac2 = tl.sum(acc, axis=0) / n_pairs
        tl.store(mean_out + pix, mean, mask=pmask)
        tl.store(ac2_out + pix, ac2, mask=pmask)


def run(movie: torch.Tensor, lag: int) -> tuple:
    T, H, W = movie.shape
    mean = torch.empty((H, W), device=movie.device, dtype=movie.dtype)
    ac2 = torch.empty((H, W), device=movie.device, dtype=movie.dtype)
    n_pix = H * W
    BP, BT = 256, 16
    grid = (min(_VECTOR_CORES, triton.cdiv(n_pix, BP)),)
    _sofi_ac2_lag[grid](movie, mean, ac2, T, n_pix, lag, BP=BP, BT=BT)
    return mean, ac2
