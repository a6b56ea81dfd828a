"""ByteTrack Kalman multi_predict: mean' = F mean, cov' = F cov F^T + Q for every track."""
import torch
import triton
import triton.language as tl

W_POS = tl.constexpr(1.0 / 20)
W_VEL = tl.constexpr(1.0 / 160)


@triton.jit
def _kf_predict(mean, cov, mean_out, cov_out):
    n = tl.program_id(0)
    k = tl.arange(0, 8)
    kf = k.to(tl.float32)
    row = k[:, None]
    col = k[None, :]
    diag = kf[:, None] == kf[None, :]
    x = tl.load(mean + n * 8 + k)
    v = tl.load(mean + n * 8 + 4 + k, mask=k < 4, other=0.0)
    tl.store(mean_out + n * 8 + k, x + v)
    h = tl.load(mean + n * 8 + 3)
    std = tl.where(kf < 3.5, W_POS, W_VEL) * h
    std = tl.where((kf == 2.0) | (kf == 6.0), tl.where(kf < 3.5, 1e-2, 1e-5), std)
    q = std * std
    coff = n * 64 + row * 8 + col
    p = tl.load(cov + coff)
    p_r = tl.load(cov + coff + 32, mask=row < 4, other=0.0)
    p_c = tl.load(cov + coff + 4, mask=col < 4, other=0.0)
    p_rc = tl.load(cov + coff + 36, mask=(row < 4) & (col < 4), other=0.0)
    out = p + p_r + p_c + p_rc + tl.where(diag, q[:, None], 0.0)
    tl.store(cov_out + coff, out)


def run(mean: torch.Tensor, cov: torch.Tensor) -> tuple:
    N = mean.shape[0]
    mean_out = torch.empty_like(mean)
    cov_out = torch.empty_like(cov)
    _kf_predict[(N,)](mean, cov, mean_out, cov_out)
    return mean_out, cov_out
