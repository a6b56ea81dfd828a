"""Batched generalised Lomb-Scargle (astropy LombScargle: fit_mean, center_data, standard normalisation)."""
import torch
import triton
import triton.language as tl

_AI_CORES = 20


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
                     BS: tl.constexpr, BF: tl.constexpr, BN: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    n_fblk = tl.cdiv(F, BF)
    for task in range(pid, tl.cdiv(S, BS) * n_fblk, nprog):
        sblk = task // n_fblk
        fblk = task - sblk * n_fblk
        offs_f = fblk * BF + tl.arange(0, BF)
        fmask = offs_f < F
        freq = tl.load(f_ptr + offs_f, mask=fmask, other=0.0)
        offs_s = sblk * BS + tl.arange(0, BS)
        smask = offs_s < S
        y_rows = y_ptr + offs_s[:, None] * stride_y
        dy_rows = dy_ptr + offs_s[:, None] * stride_y

        # weighted means of the block's light curves (center_data)
        wsum = tl.zeros([BS, BN], dtype=tl.float32)
        wysum = tl.zeros([BS, BN], dtype=tl.float32)
        for n0 in range(0, N, BN):
            offs_n = n0 + tl.arange(0, BN)
            m2 = smask[:, None] & (offs_n < N)[None, :]
            e = tl.load(dy_rows + offs_n[None, :], mask=m2, other=float("inf"))
            w = 1.0 / (e * e)
            wsum += w
            wysum += w * tl.load(y_rows + offs_n[None, :], mask=m2, other=0.0)
        # (rows past S have no weight; keep their scale finite)
        inv_w = 1.0 / tl.maximum(tl.sum(wsum, axis=1), 1e-30)
        ybar = tl.sum(wysum, axis=1) * inv_w

        C = tl.zeros([BS, BF], dtype=tl.float32)
        Sn = tl.zeros([BS, BF], dtype=tl.float32)
        C2 = tl.zeros([BS, BF], dtype=tl.float32)
        S2 = tl.zeros([BS, BF], dtype=tl.float32)
        YC = tl.zeros([BS, BF], dtype=tl.float32)
        YS = tl.zeros([BS, BF], dtype=tl.float32)
        yy = tl.zeros([BS, BN], dtype=tl.float32)
        for n0 in range(0, N, BN):
            offs_n = n0 + tl.arange(0, BN)
            nmask = offs_n < N
            m2 = smask[:, None] & nmask[None, :]
            t = tl.load(t_ptr + offs_n, mask=nmask, other=0.0)
            e = tl.load(dy_rows + offs_n[None, :], mask=m2, other=float("inf"))
            w = inv_w[:, None] / (e * e)
            yc = tl.load(y_rows + offs_n[None, :], mask=m2, other=0.0) - ybar[:, None]
            wy = w * yc
            yy += wy * yc
            # phases in fractional cycles keep fp32 accurate over a 27-day sector; one trig tile
            # serves all BS stars of the block
            cyc = t[:, None] * freq[None, :]
            cyc = cyc - tl.floor(cyc)
            c = tl.cos(6.283185307179586 * cyc)
            s = tl.sin(6.283185307179586 * cyc)
            C = tl.dot(w, c, C)
            Sn = tl.dot(w, s, Sn)
            C2 = tl.dot(w, c * c - s * s, C2)
            S2 = tl.dot(w, 2.0 * c * s, S2)
            YC = tl.dot(wy, c, YC)
            YS = tl.dot(wy, s, YS)

        power = _tau_rotated_power(C, Sn, C2, S2, YC, YS, tl.sum(yy, axis=1)[:, None])
        tl.store(p_ptr + offs_s[:, None] * stride_p + offs_f[None, :], power,
                 mask=smask[:, None] & fmask[None, :])


def run(t: torch.Tensor, y: torch.Tensor, dy: torch.Tensor, freq: torch.Tensor) -> torch.Tensor:
    S, N = y.shape
    F = freq.shape[0]
    power = torch.empty((S, F), device=y.device, dtype=torch.float32)
    BS, BF, BN = 64, 64, 64
    tasks = triton.cdiv(S, BS) * triton.cdiv(F, BF)
    grid = (min(_AI_CORES, tasks),)
    _lombscargle_fwd[grid](t, y, dy, freq, power, S, N, F, y.stride(0), power.stride(0),
                           BS=BS, BF=BF, BN=BN)
    return power
