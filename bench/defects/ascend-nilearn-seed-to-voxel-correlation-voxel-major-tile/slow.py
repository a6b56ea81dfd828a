"""Seed-to-voxel connectivity: Pearson r of every voxel's cleaned signal with the seed, then Fisher z."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _seed_corr(sig_ptr, seed_ptr, z_ptr, T, V, stride_t,
               BT: tl.constexpr, BV: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    frames = tl.arange(0, BT)
    # seed mean and sum of squares, once per program
    acc_s = tl.zeros([BT], dtype=tl.float32)
    acc_ss = tl.zeros([BT], dtype=tl.float32)
    for t0 in range(0, T, BT):
        s = tl.load(seed_ptr + t0 + frames, mask=t0 + frames < T, other=0.0)
        acc_s += s
        acc_ss += s * s
    s_sum = tl.sum(acc_s, axis=0)
    s_mean = s_sum / T
    s_var = tl.sum(acc_ss, axis=0) - s_sum * s_mean
    for blk in range(pid, tl.cdiv(V, BV), nprog):
        vox = blk * BV + tl.arange(0, BV)
        vox_ok = vox < V
        sx = tl.zeros([BV, BT], dtype=tl.float32)
        sxx = tl.zeros([BV, BT], dtype=tl.float32)
        sxs = tl.zeros([BV, BT], dtype=tl.float32)
        for t0 in range(0, T, BT):
            t = t0 + frames
            t_ok = t < T
            s = tl.load(seed_ptr + t, mask=t_ok, other=0.0) - s_mean
            x = tl.load(sig_ptr + t[None, :] * stride_t + vox[:, None],
                        mask=vox_ok[:, None] & t_ok[None, :], other=0.0)
            sx += x
            sxx += x * x
            sxs += x * s[None, :]
        x_sum = tl.sum(sx, axis=1)
        x_var = tl.sum(sxx, axis=1) - x_sum * x_sum / T
        r = tl.sum(sxs, axis=1) / tl.sqrt(x_var * s_var)
        z = 0.5 * tl.log((1.0 + r) / (1.0 - r))
        tl.store(z_ptr + vox, z, mask=vox_ok)


def run(signals: torch.Tensor, seed_ts: torch.Tensor) -> torch.Tensor:
    T, V = signals.shape
    z = torch.empty((V,), device=signals.device, dtype=torch.float32)
    BT, BV = 32, 128
    grid = (min(_VECTOR_CORES, triton.cdiv(V, BV)),)
    _seed_corr[grid](signals, seed_ts, z, T, V, signals.stride(0), BT=BT, BV=BV)
    return z
