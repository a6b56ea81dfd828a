"""Prophet trend-uncertainty paths: slope changes integrated twice along the forecast horizon."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_BR = 32
_BT = 128


@triton.jit
def _trend_samples(u, shift, expected, out, L, N, likelihood, single_diff, y_scale,
                   BR: tl.constexpr, BT: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for rb in range(pid, tl.cdiv(N, BR), nprog):
        cols = rb * BR + tl.arange(0, BR)
        cmask = cols < N
        run_mat = tl.zeros([BR], dtype=tl.float32)     # sum of mat over the steps already done
        level = tl.zeros([BR], dtype=tl.float32)
        for t0 in range(0, L, BT):
            ts = t0 + tl.arange(0, BT)
            tmask = ts < L
            mask = tmask[:, None] & cmask[None, :]
            offs = ts[:, None] * N + cols[None, :]
            uu = tl.load(u + offs, mask=mask, other=1.0)
            sh = tl.load(shift + offs, mask=mask, other=0.0)
            mat = tl.where(uu < likelihood, sh, 0.0)
            # cumsum of (mat[t] + mat[t-1]) / 2 is cumsum(mat)[t] - mat[t] / 2
            slope = run_mat[None, :] + tl.cumsum(mat, axis=0) - 0.5 * mat
            lv = level[None, :] + tl.cumsum(slope, axis=0)
            e = tl.load(expected + ts, mask=tmask, other=0.0)
            tl.store(out + offs, (e[:, None] + single_diff * lv) * y_scale, mask=mask)
            run_mat += tl.sum(mat, axis=0)
            level += tl.sum(slope, axis=0)     # rows past L (last tile only) are never used again


def run(u, shift, expected, likelihood, single_diff, y_scale):
    L, N = u.shape
    out = torch.empty((L, N), device=u.device, dtype=u.dtype)
    grid = (min(_VECTOR_CORES, triton.cdiv(N, _BR)),)
    _trend_samples[grid](u, shift, expected, out, L, N, likelihood, single_diff, y_scale,
                         BR=_BR, BT=_BT)
    return out
