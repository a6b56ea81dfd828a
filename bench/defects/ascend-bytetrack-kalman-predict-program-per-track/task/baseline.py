"""ByteTrack Kalman multi_predict: mean' = F mean, cov' = F cov F^T + Q for every track."""
import torch
import triton
import triton.language as tl

W_POS = tl.constexpr(1.0 / 20)
W_VEL = tl.constexpr(1.0 / 160)


@triton.jit
def _kf_predict(mean, cov, mean_out, cov_out, n_tracks, n_tiles, TILE: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    ti = tl.arange(0, TILE)
    k = tl.arange(0, 8)
    kf = k.to(tl.float32)[None, :]
    row = k[None, :, None]
    col = k[None, None, :]
    diag = k.to(tl.float32)[None, :, None] == k.to(tl.float32)[None, None, :]
    for tile in range(pid, n_tiles, nprog):
        n = tile * TILE + ti
        nm = n < n_tracks
        moff = n[:, None] * 8 + k[None, :]
        x = tl.load(mean + moff, mask=nm[:, None], other=0.0)
        v = tl.load(mean + moff + 4, mask=nm[:, None] & (k[None, :] < 4), other=0.0)
        tl.store(mean_out + moff, x + v, mask=nm[:, None])
        h = tl.sum(tl.where(kf == 3.0, x, 0.0), axis=1)
        std = tl.where(kf < 3.5, W_POS, W_VEL) * h[:, None]
        std = tl.where((kf == 2.0) | (kf == 6.0), tl.where(kf < 3.5, 1e-2, 1e-5), std)
        q = std * std
        coff = n[:, None, None] * 64 + row * 8 + col
        cm = nm[:, None, None]
        p = tl.load(cov + coff, mask=cm, other=0.0)
        p_r = tl.load(cov + coff + 32, mask=cm & (row < 4), other=0.0)
        p_c = tl.load(cov + coff + 4, mask=cm & (col < 4), other=0.0)
        p_rc = tl.load(cov + coff + 36, mask=cm & (row < 4) & (col < 4), other=0.0)
        out = p + p_r + p_c + p_rc + tl.where(diag, q[:, :, None], 0.0)
        tl.store(cov_out + coff, out, mask=cm)


def run(mean: torch.Tensor, cov: torch.Tensor) -> tuple:
    N = mean.shape[0]
    mean_out = torch.empty_like(mean)
    cov_out = torch.empty_like(cov)
    TILE = 32
    n_tiles = triton.cdiv(N, TILE)
    _kf_predict[(min(40, n_tiles),)](mean, cov, mean_out, cov_out, N, n_tiles, TILE=TILE)
    return mean_out, cov_out
