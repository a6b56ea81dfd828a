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
def _monthly_ti_mb(z_ptr, temp_ptr, prcp_ptr, ref_ptr, mf_ptr, bias_ptr, out_ptr, G, N, month,
                   temp_grad, t_melt, t_solid, inv_range, days_per_month,
                   BG: tl.constexpr, BN: tl.constexpr):
    # get_monthly_mb for one month of the year, added into the annual balance in `out`
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
        dtemp = temp_grad * (z - ref[:, None])
        t_m = tl.load(temp_ptr + month * G + rows, mask=rmask, other=0.0)
        p_m = tl.load(prcp_ptr + month * G + rows, mask=rmask, other=0.0)
        t = dtemp + t_m[:, None]
        tmelt = tl.maximum(t - t_melt, 0.0)
        fsol = tl.minimum(tl.maximum(1.0 - (t - t_solid) * inv_range, 0.0), 1.0)
        mb = p_m[:, None] * fsol - mf[:, None] * tmelt
        if month == 0:
            bias = tl.load(bias_ptr + rows, mask=rmask, other=0.0)
            mb = mb - bias[:, None]
        else:
            mb = mb + tl.load(out_ptr + offs, mask=mask, other=0.0)
        tl.store(out_ptr + offs, mb, mask=mask)


def run(z, temp, prcp, ref_hgt, melt_f, bias):
    G, N = z.shape
    nmonth = temp.shape[0]
    out = torch.empty((G, N), device=z.device, dtype=z.dtype)
    BN = triton.next_power_of_2(N)
    BG = max(1, 2048 // BN)
    grid = (min(_VECTOR_CORES, triton.cdiv(G, BG)),)
    for month in range(nmonth):
        _monthly_ti_mb[grid](z, temp, prcp, ref_hgt, melt_f, bias, out, G, N, month,
                             TEMP_GRAD, T_MELT, T_SOLID, 1.0 / (T_LIQ - T_SOLID), DAYS_PER_MONTH,
                             BG=BG, BN=BN)
    return out
