"""RNNoise pitch_filter(): comb-filter each frame with its pitch-delayed spectrum, then renormalise per band."""
import torch
import triton
import triton.language as tl

BLOCK_F = 512
BANDS_PAD = 32


@triton.jit
def _pitch_filter(X, P, Ex, Ep, Exp, G, eband, out, T, F,
                  NB_BANDS: tl.constexpr, BANDS_PAD: tl.constexpr, BLOCK_F: tl.constexpr):
    stream = tl.program_id(0)
    j = tl.arange(0, BLOCK_F)
    k = tl.arange(0, BANDS_PAD)
    j_ok = j < F
    k_ok = k < NB_BANDS
    # bin j lies between band edges lo and lo + 1: the triangles of interp_band_gain / compute_band_energy
    edges = tl.load(eband + k, mask=k_ok, other=1 << 30)
    lo = tl.sum((j[:, None] >= edges[None, :]).to(tl.int32), axis=1) - 1
    inside = lo < NB_BANDS - 1
    lo = tl.minimum(lo, NB_BANDS - 2)
    start = tl.load(eband + lo)
    frac = (j - start).to(tl.float32) / (tl.load(eband + lo + 1) - start).to(tl.float32)
    w = tl.where(inside[:, None] & (k[None, :] == lo[:, None]), 1.0 - frac[:, None], 0.0) \
        + tl.where(inside[:, None] & (k[None, :] == lo[:, None] + 1), frac[:, None], 0.0)
    edge_band = tl.where((k == 0) | (k == NB_BANDS - 1), 2.0, 1.0)
    for t in range(T):  # the stream's frames, one after the other as rnnoise_process_frame() sees them
        frame = stream * T + t
        bands = frame * NB_BANDS + k
        ex = tl.load(Ex + bands, mask=k_ok, other=0.0)
        ep = tl.load(Ep + bands, mask=k_ok, other=0.0)
        xp = tl.load(Exp + bands, mask=k_ok, other=0.0)
        g = tl.load(G + bands, mask=k_ok, other=0.0)
        r = tl.where(xp > g, 1.0, xp * xp * (1.0 - g * g) / (0.001 + g * g * (1.0 - xp * xp)))
        r = tl.sqrt(tl.minimum(tl.maximum(r, 0.0), 1.0)) * tl.sqrt(ex / (1e-8 + ep))
        rf = tl.sum(w * r[None, :], axis=1)
        bins = frame * F * 2 + 2 * j
        xr = tl.load(X + bins, mask=j_ok, other=0.0)
        xi = tl.load(X + bins + 1, mask=j_ok, other=0.0)
        pr = tl.load(P + bins, mask=j_ok, other=0.0)
        pi = tl.load(P + bins + 1, mask=j_ok, other=0.0)
        xr += rf * pr
        xi += rf * pi
        new_e = tl.sum(w * (xr * xr + xi * xi)[:, None], axis=0) * edge_band
        normf = tl.sum(w * tl.sqrt(ex / (1e-8 + new_e))[None, :], axis=1)
        tl.store(out + bins, xr * normf, mask=j_ok)
        tl.store(out + bins + 1, xi * normf, mask=j_ok)


def run(x, p, ex, ep, exp, g, eband) -> torch.Tensor:
    n_b, n_t, n_f, _ = x.shape
    out = torch.empty_like(x)
    _pitch_filter[(n_b,)](x, p, ex, ep, exp, g, eband, out, n_t, n_f,
                          NB_BANDS=ex.shape[2], BANDS_PAD=BANDS_PAD, BLOCK_F=BLOCK_F, num_warps=16)
    return out
