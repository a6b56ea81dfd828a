"""ICON saturation adjustment (satad_v_3D): evaporate or Newton-adjust T, qv, qc at every point."""
import torch
import triton
import triton.language as tl

RV = tl.constexpr(461.51)
CVD = tl.constexpr(1004.64 - 287.04)
ALV = tl.constexpr(2.5008e6)
CPV = tl.constexpr(1869.46)
CLW = tl.constexpr(4192.6641)
TMELT = tl.constexpr(273.15)
B1 = tl.constexpr(610.78)
B2W = tl.constexpr(17.269)
B3 = tl.constexpr(273.15)
B4W = tl.constexpr(35.86)
NEWTON_ITERS = tl.constexpr(6)


@triton.jit
def _qsat_rho(t, rho):
    return B1 * tl.exp(B2W * (t - B3) / (t - B4W)) / (rho * RV * t)


@triton.jit
def _satad(t_ptr, qv_ptr, qc_ptr, rho_ptr, t_out, qv_out, qc_out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    t0 = tl.load(t_ptr + offs, mask=m, other=280.0)
    qv0 = tl.load(qv_ptr + offs, mask=m, other=0.0)
    qc0 = tl.load(qc_ptr + offs, mask=m, other=0.0)
    rho = tl.load(rho_ptr + offs, mask=m, other=1.0)

    lwdocvd = (ALV + (CPV - CLW) * (t0 - TMELT) - RV * t0) / CVD
    qt = qv0 + qc0
    t_dry = t0 - lwdocvd * qc0
    dry = qt <= _qsat_rho(t_dry, rho)

    b234w = B2W * (B3 - B4W)
    tw = t0
    for _ in range(NEWTON_ITERS):
        qw = _qsat_rho(tw, rho)
        dqw = qw * (b234w / ((tw - B4W) * (tw - B4W)) - 1.0 / tw)
        f = tw - t0 + lwdocvd * (qw - qv0)
        tw = tw - f / (1.0 + lwdocvd * dqw)
    qw = _qsat_rho(tw, rho)

    tl.store(t_out + offs, tl.where(dry, t_dry, tw), mask=m)
    tl.store(qv_out + offs, tl.where(dry, qt, qw), mask=m)
    tl.store(qc_out + offs, tl.where(dry, 0.0, tl.maximum(qt - qw, 0.0)), mask=m)


def run(t: torch.Tensor, qv: torch.Tensor, qc: torch.Tensor, rho: torch.Tensor) -> tuple:
    n = t.numel()
    t_new, qv_new, qc_new = torch.empty_like(t), torch.empty_like(qv), torch.empty_like(qc)
    BLOCK = 1024
    _satad[(triton.cdiv(n, BLOCK),)](t, qv, qc, rho, t_new, qv_new, qc_new, n, BLOCK=BLOCK)
    return t_new, qv_new, qc_new
