"""Veros get_rho: TEOS-10 48-term in-situ density anomaly times the tracer mask, on Ascend."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _gsw_rho48(sa, ct, p):
    sqrtsa = tl.sqrt(sa)
    v_hat_denominator = (9.998420897506056e+2 + ct * (2.839940833161907e0 + ct * (-3.147759265588511e-2 + 1.181805545074306e-3 * ct))
                         + sa * (-6.698001071123802e0 + ct * (-2.986498947203215e-2 + 2.327859407479162e-4 * ct)
                                 + sqrtsa * (-3.988822378968490e-2 + ct * (5.095422573880500e-4 + ct * (-1.426984671633621e-5 + 1.645039373682922e-7 * ct))))
                         + p * (-2.233269627352527e-2 + ct * (-3.436090079851880e-4 + 3.726050720345733e-6 * ct)
                                + sa * (-1.806789763745328e-4 + 6.876837219536232e-7 * ct)
                                + p * (-3.087032500374211e-7 + ct * (-1.988366587925593e-8 + -1.061519070296458e-11 * ct) + 1.550932729220080e-10 * sa)))
    v_hat_numerator = (1.0 + ct * (2.775927747785646e-3 + ct * (-2.349607444135925e-5 + ct * (1.119513357486743e-6 + 6.743689325042773e-10 * ct)))
                       + sa * (-7.521448093615448e-3 + ct * (-2.764306979894411e-5 + ct * (1.262937315098546e-7 + ct * (9.527875081696435e-10 + -1.811147201949891e-11 * ct)))
                               + 5.419326551148740e-6 * sa
                               + sqrtsa * (-3.303308871386421e-5 + ct * (3.801564588876298e-7 + ct * (-7.672876869259043e-9 + ct * (-4.634182341116144e-11 + 2.681097235569143e-12 * ct)))))
                       + p * (-2.742185394906099e-5 + ct * (-3.212746477974189e-7 + ct * (3.191413910561627e-9 + -1.931012931541776e-12 * ct))
                              + sa * (-1.105097577149576e-7 + 6.211426728363857e-10 * ct)
                              + p * (-1.119011592875110e-10 + ct * (-1.941660213148725e-11 + -1.864826425365600e-14 * ct + 1.119522344879478e-14 * sa)
                                     + p * (-1.200507748551599e-15 + 6.057902487546866e-17 * ct))))
    return v_hat_denominator / v_hat_numerator - 1024.0


@triton.jit
def _get_rho_fwd(salt, temp, zt, mask_t, rho, ncol, nz, BC: tl.constexpr, BZ: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    ks = tl.arange(0, BZ)
    kmask = ks < nz
    p = tl.abs(tl.load(zt + ks, mask=kmask, other=0.0))[None, :]   # one level vector per program
    for blk in range(pid, tl.cdiv(ncol, BC), nprog):
        cols = blk * BC + tl.arange(0, BC)
        m = (cols < ncol)[:, None] & kmask[None, :]
        offs = cols[:, None] * nz + ks[None, :]                    # z is the fastest axis
        sa = tl.load(salt + offs, mask=m, other=0.0)
        ct = tl.load(temp + offs, mask=m, other=0.0)
        wet = tl.load(mask_t + offs, mask=m, other=0.0)
        tl.store(rho + offs, _gsw_rho48(sa, ct, p) * wet, mask=m)


def run(salt: torch.Tensor, temp: torch.Tensor, zt: torch.Tensor, mask_t: torch.Tensor) -> torch.Tensor:
    nx, ny, nz = salt.shape
    ncol = nx * ny
    rho = torch.empty_like(salt)
    BZ = triton.next_power_of_2(nz)
    BC = max(1, 1024 // BZ)
    grid = (min(_VECTOR_CORES, triton.cdiv(ncol, BC)),)
    _get_rho_fwd[grid](salt, temp, zt, mask_t, rho, ncol, nz, BC=BC, BZ=BZ)
    return rho
