"""Helix seed fit per track: conformal-mapping circle fit (q/pT, phi0) and r-z line fit (cot theta, z0)."""
import torch
import triton
import triton.language as tl

MAX_HITS = 16


@triton.jit
def _helix_fit(hits_ptr, nhits_ptr, out_ptr, qpt_per_kappa, MAX_HITS: tl.constexpr):
    trk = tl.program_id(0)
    k = tl.arange(0, MAX_HITS)
    n = tl.load(nhits_ptr + trk)
    ok = k < n
    nf = n.to(tl.float32)
    hit = hits_ptr + trk * (MAX_HITS * 3) + k * 3
    x = tl.load(hit, mask=ok, other=0.0)
    y = tl.load(hit + 1, mask=ok, other=0.0)
    z = tl.load(hit + 2, mask=ok, other=0.0)

    # rotate so that the mean hit direction is +x, then map to the conformal plane
    sx = tl.sum(x, axis=0)
    sy = tl.sum(y, axis=0)
    norm = tl.sqrt(sx * sx + sy * sy)
    c = sx / norm
    s = sy / norm
    xr = c * x + s * y
    yr = c * y - s * x
    r2 = tl.where(ok, xr * xr + yr * yr, 1.0)
    u = tl.where(ok, xr / r2, 0.0)
    v = tl.where(ok, yr / r2, 0.0)

    # least-squares line v = a + b u
    ub = tl.sum(u, axis=0) / nf
    vb = tl.sum(v, axis=0) / nf
    du = tl.where(ok, u - ub, 0.0)
    dv = tl.where(ok, v - vb, 0.0)
    b = tl.sum(du * dv, axis=0) / tl.sum(du * du, axis=0)
    a = vb - b * ub
    sec = tl.sqrt(1.0 + b * b)
    q_over_pt = -qpt_per_kappa * 2.0 * a / sec
    cphi = (c - s * b) / sec
    sphi = (s + c * b) / sec

    # least-squares line z = z0 + cot(theta) r
    r = tl.where(ok, tl.sqrt(r2), 0.0)
    rb = tl.sum(r, axis=0) / nf
    zb = tl.sum(z, axis=0) / nf
    dr = tl.where(ok, r - rb, 0.0)
    dz = tl.where(ok, z - zb, 0.0)
    cot = tl.sum(dr * dz, axis=0) / tl.sum(dr * dr, axis=0)
    z0 = zb - cot * rb

    out = out_ptr + trk * 5
    tl.store(out, q_over_pt)
    tl.store(out + 1, cphi)
    tl.store(out + 2, sphi)
    tl.store(out + 3, cot)
    tl.store(out + 4, z0)


def run(hits: torch.Tensor, n_hits: torch.Tensor, b_field: float) -> torch.Tensor:
    n_tracks = hits.shape[0]
    params = torch.empty((n_tracks, 5), device=hits.device, dtype=torch.float32)
    # one program per track: its hits are one 16-wide row, half a warp
    _helix_fit[(n_tracks,)](hits, n_hits, params, 1000.0 / (0.3 * b_field),
                            MAX_HITS=MAX_HITS, num_warps=1)
    return params
