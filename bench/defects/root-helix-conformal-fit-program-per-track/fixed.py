"""Helix seed fit per track: conformal-mapping circle fit (q/pT, phi0) and r-z line fit (cot theta, z0)."""
import torch
import triton
import triton.language as tl

MAX_HITS = 16
BLOCK_T = 64


@triton.jit
def _helix_fit(hits_ptr, nhits_ptr, out_ptr, n_tracks, qpt_per_kappa,
               MAX_HITS: tl.constexpr, BLOCK_T: tl.constexpr):
    trk = tl.program_id(0) * BLOCK_T + tl.arange(0, BLOCK_T)
    trk_ok = trk < n_tracks
    k = tl.arange(0, MAX_HITS)
    n = tl.load(nhits_ptr + trk, mask=trk_ok, other=MAX_HITS)
    ok = (k[None, :] < n[:, None]) & trk_ok[:, None]
    nf = n.to(tl.float32)
    hit = hits_ptr + trk[:, None] * (MAX_HITS * 3) + k[None, :] * 3
    x = tl.load(hit, mask=ok, other=0.0)
    y = tl.load(hit + 1, mask=ok, other=0.0)
    z = tl.load(hit + 2, mask=ok, other=0.0)

    # rotate so that the mean hit direction is +x, then map to the conformal plane
    sx = tl.sum(x, axis=1)
    sy = tl.sum(y, axis=1)
    norm = tl.sqrt(sx * sx + sy * sy)
    norm = tl.where(trk_ok, norm, 1.0)
    c = sx / norm
    s = sy / norm
    xr = c[:, None] * x + s[:, None] * y
    yr = c[:, None] * y - s[:, None] * x
    r2 = tl.where(ok, xr * xr + yr * yr, 1.0)
    u = tl.where(ok, xr / r2, 0.0)
    v = tl.where(ok, yr / r2, 0.0)

    # least-squares line v = a + b u
    ub = tl.sum(u, axis=1) / nf
    vb = tl.sum(v, axis=1) / nf
    du = tl.where(ok, u - ub[:, None], 0.0)
    dv = tl.where(ok, v - vb[:, None], 0.0)
    b = tl.sum(du * dv, axis=1) / tl.sum(du * du, axis=1)
    a = vb - b * ub
    sec = tl.sqrt(1.0 + b * b)
    q_over_pt = -qpt_per_kappa * 2.0 * a / sec
    cphi = (c - s * b) / sec
    sphi = (s + c * b) / sec

    # least-squares line z = z0 + cot(theta) r
    r = tl.where(ok, tl.sqrt(r2), 0.0)
    rb = tl.sum(r, axis=1) / nf
    zb = tl.sum(z, axis=1) / nf
    dr = tl.where(ok, r - rb[:, None], 0.0)
    dz = tl.where(ok, z - zb[:, None], 0.0)
    cot = tl.sum(dr * dz, axis=1) / tl.sum(dr * dr, axis=1)
    z0 = zb - cot * rb

    out = out_ptr + trk * 5
    tl.store(out, q_over_pt, mask=trk_ok)
    tl.store(out + 1, cphi, mask=trk_ok)
    tl.store(out + 2, sphi, mask=trk_ok)
    tl.store(out + 3, cot, mask=trk_ok)
    tl.store(out + 4, z0, mask=trk_ok)


def run(hits: torch.Tensor, n_hits: torch.Tensor, b_field: float) -> torch.Tensor:
    n_tracks = hits.shape[0]
    params = torch.empty((n_tracks, 5), device=hits.device, dtype=torch.float32)
    # one program per block of 64 tracks: a [64, 16] hit tile, the fit's sums along the hit axis
    _helix_fit[(triton.cdiv(n_tracks, BLOCK_T),)](hits, n_hits, params, n_tracks, 1000.0 / (0.3 * b_field),
                                                  MAX_HITS=MAX_HITS, BLOCK_T=BLOCK_T, num_warps=4)
    return params
