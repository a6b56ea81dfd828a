"""PISM positive-degree-day SMB: Calov-Greve PDDs, snow accumulation, snow/ice melt and refreeze over a year."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
BLOCK = 1024

SIGMA = 5.0
DDF_SNOW = 3.297e-3
DDF_ICE = 8.791e-3
REFREEZE = 0.6
T_SNOW = 0.0
T_RAIN = 2.0


@triton.jit
def _pdd_year(T, P, H, SNOW0, SMB, MELT, RUNOFF, SNOW, n_cells, n_steps, dt_days,
              sigma, ddf_snow, ddf_ice, refreeze, t_rain, inv_rain_range,
              BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    inv_sqrt2_sigma = 0.7071067811865476 / sigma
    cg_peak = sigma * 0.3989422804014327
    for blk in range(pid, tl.cdiv(n_cells, BLOCK), nprog):
        offs = blk * BLOCK + tl.arange(0, BLOCK)
        ok = offs < n_cells
        h = tl.load(H + offs, mask=ok, other=0.0)
        snow = tl.load(SNOW0 + offs, mask=ok, other=0.0)
        smb = tl.zeros([BLOCK], dtype=tl.float32)
        melt = tl.zeros([BLOCK], dtype=tl.float32)
        total_runoff = tl.zeros([BLOCK], dtype=tl.float32)
        for k in range(n_steps):
            t = tl.load(T + k * n_cells + offs, mask=ok, other=0.0)
            p = tl.load(P + k * n_cells + offs, mask=ok, other=0.0)
            z = t * inv_sqrt2_sigma
            pdd = dt_days * (cg_peak * tl.exp(-z * z) + 0.5 * t * (1.0 + tl.math.erf(z)))
            frac = tl.minimum(tl.maximum((t_rain - t) * inv_rain_range, 0.0), 1.0)
            acc = p * frac
            old = tl.minimum(snow, h)
            ice = h - old
            d = old + acc
            snow_melted = tl.minimum(pdd * ddf_snow, d)
            ice_melted = tl.minimum(tl.maximum(pdd - d / ddf_snow, 0.0) * ddf_ice, ice)
            runoff = snow_melted + ice_melted - refreeze * snow_melted
            melt += snow_melted + ice_melted
            total_runoff += runoff
            smb += acc - runoff
            snow = d - snow_melted
        tl.store(SMB + offs, smb, mask=ok)
        tl.store(MELT + offs, melt, mask=ok)
        tl.store(RUNOFF + offs, total_runoff, mask=ok)
        tl.store(SNOW + offs, snow, mask=ok)


def run(T: torch.Tensor, P: torch.Tensor, H: torch.Tensor, snow0: torch.Tensor, dt_days: float) -> tuple:
    n_steps, my, mx = T.shape
    n_cells = my * mx
    smb = torch.empty((my, mx), device=T.device, dtype=T.dtype)
    melt = torch.empty((my, mx), device=T.device, dtype=T.dtype)
    runoff = torch.empty((my, mx), device=T.device, dtype=T.dtype)
    snow = torch.empty((my, mx), device=T.device, dtype=T.dtype)
    grid = (min(_VECTOR_CORES, triton.cdiv(n_cells, BLOCK)),)
    _pdd_year[grid](T, P, H, snow0, smb, melt, runoff, snow, n_cells, n_steps, float(dt_days),
                    SIGMA, DDF_SNOW, DDF_ICE, REFREEZE, T_RAIN, 1.0 / (T_RAIN - T_SNOW),
                    BLOCK=BLOCK)
    return smb, melt, runoff, snow
