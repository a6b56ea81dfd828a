"""LDA (Slater + PW92) on a molecular grid: weighted potential per point, XC energy and electrons per atom."""
import torch
import triton
import triton.language as tl

BLOCK = 1024


@triton.jit
def _lda_pw_atoms(rho_ptr, w_ptr, atm_ptr, exc_ptr, nel_ptr, wv_ptr, ngrids, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < ngrids
    rho = tl.load(rho_ptr + offs, mask=m, other=0.0)
    w = tl.load(w_ptr + offs, mask=m, other=0.0)
    atm = tl.load(atm_ptr + offs, mask=m, other=0)

    live = rho > 1e-10
    r = tl.where(live, rho, 1.0)
    cbrt_r = tl.exp(tl.log(r) * (1.0 / 3.0))
    ex = -0.7385587663820224 * cbrt_r                 # -(3/4) (3/pi)^(1/3) rho^(1/3)
    rs = 0.6203504908994001 / cbrt_r                   # (3 / (4 pi))^(1/3) / rho^(1/3)
    srs = tl.sqrt(rs)
    # Perdew-Wang 92, paramagnetic: A = 0.031091, alpha1 = 0.21370, beta1..4
    q0 = -0.062182 * (1.0 + 0.21370 * rs)
    q1 = 0.062182 * (7.5957 * srs + 3.5876 * rs + 1.6382 * rs * srs + 0.49294 * rs * rs)
    q1p = 0.031091 * (7.5957 / srs + 2.0 * 3.5876 + 3.0 * 1.6382 * srs + 4.0 * 0.49294 * rs)
    t = 1.0 / q1
    u = 1.0 + t
    lg = tl.where(u == 1.0, t, tl.log(u) * (t / (u - 1.0)))  # log1p(t), accurate at low density
    ec = q0 * lg
    dec = -0.062182 * 0.21370 * lg - q0 * q1p / (q1 * q1 + q1)
    vxc = (4.0 / 3.0) * ex + ec - rs * (1.0 / 3.0) * dec

    den = tl.where(live & m, w * rho, 0.0)
    tl.store(wv_ptr + offs, tl.where(live, w * vxc, 0.0), mask=m)
    # atm_idx is sorted: the block holds the contiguous atoms first..last, usually one or two
    e = den * (ex + ec)
    first = tl.min(tl.where(m, atm, 2147483647), axis=0)
    last = tl.max(tl.where(m, atm, -1), axis=0)
    for a in range(first, last + 1):
        mine = atm == a
        tl.atomic_add(exc_ptr + a, tl.sum(tl.where(mine, e, 0.0), axis=0))
        tl.atomic_add(nel_ptr + a, tl.sum(tl.where(mine, den, 0.0), axis=0))


def run(rho: torch.Tensor, w: torch.Tensor, atm_idx: torch.Tensor, natm: int) -> tuple:
    ngrids = rho.shape[0]
    exc = torch.zeros(natm, device=rho.device, dtype=torch.float32)
    nel = torch.zeros(natm, device=rho.device, dtype=torch.float32)
    wv = torch.empty(ngrids, device=rho.device, dtype=torch.float32)
    grid = (triton.cdiv(ngrids, BLOCK),)
    _lda_pw_atoms[grid](rho, w, atm_idx, exc, nel, wv, ngrids, BLOCK=BLOCK, num_warps=4)
    return exc, nel, wv
