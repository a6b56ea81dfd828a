"""Prophet trend-uncertainty paths: slope changes integrated twice along the forecast horizon."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_BR = 32


@triton.jit
def _trend_samples(u, shift, expected, out, L, N, likelihood, single_diff, y_scale,
                   BR: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for rb in range(pid, tl.cdiv(N, BR), nprog):
        cols = rb * BR + tl.arange(0, BR)
        cmask = cols < N
        prev = tl.zeros([BR], dtype=tl.float32)
        slope = tl.zeros([BR], dtype=tl.float32)
        level = tl.zeros([BR], dtype=tl.float32)
        for t in range(0, L):
            uu = tl.load(u + t * N + cols, mask=cmask, other=1.0)
            sh = tl.load(shift + t * N + cols, mask=cmask, other=0.0)
            mat = tl.where(uu < likelihood, sh, 0.0)
            slope += 0.5 * (mat + prev)
            prev = mat
            level += slope
            e = tl.load(expected + t)
            tl.store(out + t * N + cols, (e + single_diff * level) * y_scale, mask=cmask)


def run(u, shift, expected, likelihood, single_diff, y_scale):
    L, N = u.shape
    out = torch.empty((L, N), device=u.device, dtype=u.dtype)
    grid = (min(_VECTOR_CORES, triton.cdiv(N, _BR)),)
    _trend_samples[grid](u, shift, expected, out, L, N, likelihood, single_diff, y_scale, BR=_BR)
    return out
