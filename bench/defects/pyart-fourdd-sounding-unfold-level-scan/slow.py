"""FourDD sounding first guess: interpolate the sonde wind at every gate's altitude and unfold the
observed radial velocity to the Nyquist interval around the projected first guess."""
import torch
import triton
import triton.language as tl

BLOCK_G = 256
LEVEL_CHUNK = 32
FILL = -9999.0
DEG2RAD = tl.constexpr(0.017453292519943295)
R_EFF = tl.constexpr(6371000.0 * 4.0 / 3.0)


@triton.jit
def _sounding_unfold(vel, azimuth, elevation, gate_range, nyquist, sonde_h, sonde_u, sonde_v, out,
                     n_gates, n_levels, radar_alt, fill,
                     BLOCK_G: tl.constexpr, LEVEL_CHUNK: tl.constexpr):
    ray = tl.program_id(0)
    g = tl.program_id(1) * BLOCK_G + tl.arange(0, BLOCK_G)
    inside = g < n_gates
    az = tl.load(azimuth + ray) * DEG2RAD
    el = tl.load(elevation + ray) * DEG2RAD
    nyq = tl.load(nyquist + ray)
    r = tl.load(gate_range + g, mask=inside, other=0.0)
    v = tl.load(vel + ray * n_gates + g, mask=inside, other=0.0)

    # gate altitude with the 4/3 effective earth radius (pyart.core.antenna_to_cartesian)
    z = tl.sqrt(r * r + R_EFF * R_EFF + 2.0 * r * R_EFF * tl.sin(el)) - R_EFF + radar_alt

    # sonde interval: number of sonde levels at or below each gate's altitude
    levels = tl.arange(0, LEVEL_CHUNK)
    below = tl.zeros([BLOCK_G], dtype=tl.int32)
    for k0 in range(0, n_levels, LEVEL_CHUNK):
        hk = tl.load(sonde_h + k0 + levels, mask=k0 + levels < n_levels, other=float("inf"))
        below += tl.sum((hk[None, :] <= z[:, None]).to(tl.int32), axis=1)

    has_guess = (below > 0) & (below < n_levels)
    i1 = tl.minimum(tl.maximum(below, 1), n_levels - 1)
    i0 = i1 - 1
    h0 = tl.load(sonde_h + i0, mask=inside, other=0.0)
    h1 = tl.load(sonde_h + i1, mask=inside, other=1.0)
    u0 = tl.load(sonde_u + i0, mask=inside, other=0.0)
    u1 = tl.load(sonde_u + i1, mask=inside, other=0.0)
    v0 = tl.load(sonde_v + i0, mask=inside, other=0.0)
    v1 = tl.load(sonde_v + i1, mask=inside, other=0.0)
    w = (z - h0) / (h1 - h0)
    u = u0 + w * (u1 - u0)
    vv = v0 + w * (v1 - v0)
    guess = (u * tl.sin(az) + vv * tl.cos(az)) * tl.cos(el)

    two_nyq = 2.0 * nyq
    folds = tl.floor((guess - v) / two_nyq + 0.5)
    res = tl.where(has_guess & (v != fill), v + two_nyq * folds, v)
    tl.store(out + ray * n_gates + g, res, mask=inside)


def run(vel, azimuth, elevation, gate_range, nyquist, sonde_h, sonde_u, sonde_v, radar_alt):
    n_rays, n_gates = vel.shape
    n_levels = sonde_h.shape[0]
    out = torch.empty_like(vel)
    grid = (n_rays, triton.cdiv(n_gates, BLOCK_G))
    _sounding_unfold[grid](vel, azimuth, elevation, gate_range, nyquist, sonde_h, sonde_u, sonde_v, out,
                           n_gates, n_levels, float(radar_alt), FILL,
                           BLOCK_G=BLOCK_G, LEVEL_CHUNK=LEVEL_CHUNK, num_warps=4)
    return out
