"""Batched generalised Lomb-Scargle (astropy LombScargle: fit_mean, center_data, standard normalisation)."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _tau_rotated_power(C, Sn, C2r, S2r, YC, YS, yy):
    """Floating-mean power from the raw weighted sums, rotated by w*tau with tan(2 w tau) = S2 / C2."""
    C2 = C2r - (C * C - Sn * Sn)
    S2 = S2r - 2.0 * C * Sn
    r = tl.sqrt(C2 * C2 + S2 * S2)
    # a root of tan(2a) = S2 / C2 from the half-angle formulas (no atan2 on the vector unit)
    u = tl.where(C2 >= 0.0, r + C2, S2)
    v = tl.where(C2 >= 0.0, S2, r - C2)
    inv = 1.0 / tl.sqrt(u * u + v * v)
    ca = u * inv
    sa = v * inv
    cos2 = C2 / r
    sin2 = S2 / r
    YCt = YC * ca + YS * sa
    YSt = YS * ca - YC * sa
    Ct = C * ca + Sn * sa
    St = Sn * ca - C * sa
    CCt = 0.5 * (1.0 + C2r * cos2 + S2r * sin2) - Ct * Ct
    SSt = 0.5 * (1.0 - C2r * cos2 - S2r * sin2) - St * St
    return (YCt * YCt / CCt + YSt * YSt / SSt) / yy


@triton.jit
def _lombscargle_fwd(t_ptr, y_ptr, dy_ptr, f_ptr, p_ptr, S, N, F, stride_y, stride_p,
                     BF: tl.constexpr, BN: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    n_fblk = tl.cdiv(F, BF)
    for task in range(pid, S * n_fblk, nprog):
        star = task // n_fblk
        fblk = task - star * n_fblk
        offs_f = fblk * BF + tl.arange(0, BF)
        fmask = offs_f < F
        freq = tl.load(f_ptr + offs_f, mask=fmask, other=0.0)
        y_row = y_ptr + star * stride_y
        dy_row = dy_ptr + star * stride_y

        # weighted mean of this light curve (center_data)
        wsum = tl.zeros([BN], dtype=tl.float32)
        wysum = tl.zeros([BN], dtype=tl.float32)
        for n0 in range(0, N, BN):
            offs_n = n0 + tl.arange(0, BN)
            nmask = offs_n < N
            e = tl.load(dy_row + offs_n, mask=nmask, other=float("inf"))
            w = 1.0 / (e * e)
            wsum += w
            wysum += w * tl.load(y_row + offs_n, mask=nmask, other=0.0)
        inv_w = 1.0 / tl.sum(wsum, axis=0)
        ybar = tl.sum(wysum, axis=0) * inv_w

        C = tl.zeros([BF], dtype=tl.float32)
        Sn = tl.zeros([BF], dtype=tl.float32)
        C2 = tl.zeros([BF], dtype=tl.float32)
        S2 = tl.zeros([BF], dtype=tl.float32)
        YC = tl.zeros([BF], dtype=tl.float32)
        YS = tl.zeros([BF], dtype=tl.float32)
        yy = tl.zeros([BN], dtype=tl.float32)
        for n0 in range(0, N, BN):
            offs_n = n0 + tl.arange(0, BN)
            nmask = offs_n < N
            t = tl.load(t_ptr + offs_n, mask=nmask, other=0.0)
            e = tl.load(dy_row + offs_n, mask=nmask, other=float("inf"))
            w = inv_w / (e * e)
            yc = tl.load(y_row + offs_n, mask=nmask, other=0.0) - ybar
            wy = w * yc
            yy += wy * yc
            # phases in fractional cycles keep fp32 accurate over a 27-day sector
            cyc = t[:, None] * freq[None, :]
            cyc = cyc - tl.floor(cyc)
            c = tl.cos(6.283185307179586 * cyc)
            s = tl.sin(6.283185307179586 * cyc)
            C += tl.sum(w[:, None] * c, axis=0)
            Sn += tl.sum(w[:, None] * s, axis=0)
            C2 += tl.sum(w[:, None] * (c * c - s * s), axis=0)
            S2 += tl.sum(w[:, None] * (2.0 * c * s), axis=0)
            YC += tl.sum(wy[:, None] * c, axis=0)
            YS += tl.sum(wy[:, None] * s, axis=0)

        power = _tau_rotated_power(C, Sn, C2, S2, YC, YS, tl.sum(yy, axis=0))
        tl.store(p_ptr + star * stride_p + offs_f, power, mask=fmask)


def run(t: torch.Tensor, y: torch.Tensor, dy: torch.Tensor, freq: torch.Tensor) -> torch.Tensor:
    S, N = y.shape
    F = freq.shape[0]
    power = torch.empty((S, F), device=y.device, dtype=torch.float32)
    BF, BN = 64, 64
    tasks = S * triton.cdiv(F, BF)
    grid = (min(_VECTOR_CORES, tasks),)
    _lombscargle_fwd[grid](t, y, dy, freq, power, S, N, F, y.stride(0), power.stride(0), BF=BF, BN=BN)
    return power
