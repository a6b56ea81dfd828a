"""OGGM MonthlyTIModel annual mass balance on a batch of glacier flowlines (kg m-2 yr-1)."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
TEMP_GRAD = -0.0065
T_MELT = -1.0
T_SOLID = 0.0
T_LIQ = 2.0
DAYS_PER_MONTH = 365.0 / 12.0


@triton.jit
def _annual_ti_mb(z_ptr, temp_ptr, prcp_ptr, ref_ptr, mf_ptr, bias_ptr, out_ptr, G, N,
                  temp_grad, t_melt, t_solid, inv_range, days_per_month,
                  NMONTH: tl.constexpr, BG: tl.constexpr, BN: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    cols = tl.arange(0, BN)
    cmask = cols < N
    for blk in range(pid, tl.cdiv(G, BG), nprog):
        rows = blk * BG + tl.arange(0, BG)
        rmask = rows < G
        mask = rmask[:, None] & cmask[None, :]
        offs = rows[:, None] * N + cols[None, :]
        z = tl.load(z_ptr + offs, mask=mask, other=0.0)
        ref = tl.load(ref_ptr + rows, mask=rmask, other=0.0)
        mf = tl.load(mf_ptr + rows, mask=rmask, other=0.0) * days_per_month
        bias = tl.load(bias_ptr + rows, mask=rmask, other=0.0)
        dtemp = temp_grad * (z - ref[:, None])
        acc = tl.zeros([BG, BN], dtype=tl.float32) - bias[:, None]
        for m in range(NMONTH):
            t_m = tl.load(temp_ptr + m * G + rows, mask=rmask, other=0.0)
            p_m = tl.load(prcp_ptr + m * G + rows, mask=rmask, other=0.0)
            t = dtemp + t_m[:, None]
            tmelt = tl.maximum(t - t_melt, 0.0)
            fsol = tl.minimum(tl.maximum(1.0 - (t - t_solid) * inv_range, 0.0), 1.0)
            acc += p_m[:, None] * fsol - mf[:, None] * tmelt
        tl.store(out_ptr + offs, acc, mask=mask)


def run(z, temp, prcp, ref_hgt, melt_f, bias):
    G, N = z.shape
    nmonth = temp.shape[0]
    out = torch.empty((G, N), device=z.device, dtype=z.dtype)
    BN = triton.next_power_of_2(N)
    BG = max(1, 2048 // BN)
    grid = (min(_VECTOR_CORES, triton.cdiv(G, BG)),)
    _annual_ti_mb[grid](z, temp, prcp, ref_hgt, melt_f, bias, out, G, N,
                        TEMP_GRAD, T_MELT, T_SOLID, 1.0 / (T_LIQ - T_SOLID), DAYS_PER_MONTH,
                        NMONTH=nmonth, BG=BG, BN=BN)
    return out
