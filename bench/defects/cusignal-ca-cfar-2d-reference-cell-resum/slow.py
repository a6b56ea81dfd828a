"""2-D CA-CFAR threshold over range-Doppler maps (cuSignal radartools.ca_cfar, 2-D case)."""
import torch
import triton
import triton.language as tl

GUARD_D = tl.constexpr(2)
GUARD_R = tl.constexpr(4)
REF_D = tl.constexpr(4)
REF_R = tl.constexpr(16)
PFA = 1e-6


@triton.jit
def _window_sum(plane, R, d_c, cols, HALF_D: tl.constexpr, HALF_R: tl.constexpr, ROWS: tl.constexpr):
    drow = tl.arange(0, ROWS) - HALF_D
    row_ptr = plane + (d_c + drow) * R
    row_ok = drow <= HALF_D
    acc = tl.zeros([cols.shape[0]], dtype=tl.float32)
    for k in range(-HALF_R, HALF_R + 1):
        c = cols + k
        ok = row_ok[:, None] & ((c >= 0) & (c < R))[None, :]
        acc += tl.sum(tl.load(row_ptr[:, None] + c[None, :], mask=ok, other=0.0), axis=0)
    return acc


@triton.jit
def _ca_cfar_2d(power, out, D, R, scale, BLOCK: tl.constexpr, ROWS_O: tl.constexpr, ROWS_G: tl.constexpr):
    pid_r = tl.program_id(0)
    d = tl.program_id(1)
    b = tl.program_id(2)
    HD: tl.constexpr = GUARD_D + REF_D
    HR: tl.constexpr = GUARD_R + REF_R
    cols = pid_r * BLOCK + tl.arange(0, BLOCK)
    d_c = tl.minimum(tl.maximum(d, HD), D - 1 - HD)
    plane = power + b * D * R
    outer = _window_sum(plane, R, d_c, cols, HD, HR, ROWS_O)
    inner = _window_sum(plane, R, d_c, cols, GUARD_D, GUARD_R, ROWS_G)
    interior = (cols >= HR) & (cols < R - HR) & (d >= HD) & (d < D - HD)
    thr = tl.where(interior, scale * (outer - inner), 0.0)
    tl.store(out + (b * D + d) * R + cols, thr, mask=cols < R)


def run(power: torch.Tensor) -> torch.Tensor:
    B, D, R = power.shape
    out = torch.empty_like(power)
    hd, hr = GUARD_D.value + REF_D.value, GUARD_R.value + REF_R.value
    n_ref = (2 * hd + 1) * (2 * hr + 1) - (2 * GUARD_D.value + 1) * (2 * GUARD_R.value + 1)
    alpha = n_ref * (PFA ** (-1.0 / n_ref) - 1.0)
    BLOCK = 256
    grid = (triton.cdiv(R, BLOCK), D, B)
    _ca_cfar_2d[grid](power, out, D, R, alpha / n_ref, BLOCK=BLOCK,
                      ROWS_O=triton.next_power_of_2(2 * hd + 1), ROWS_G=triton.next_power_of_2(2 * GUARD_D.value + 1),
                      num_warps=4)
    return out
