"""OpenMM periodic torsions: fp32 per-term forces scattered into forces [N, 3], total energy in fp64."""
import torch
import triton
import triton.language as tl

MAX_PERIOD = tl.constexpr(6)


@triton.jit
def _atom(pos, i, live):
    x = tl.load(pos + i * 3, mask=live, other=0.0)
    y = tl.load(pos + i * 3 + 1, mask=live, other=0.0)
    z = tl.load(pos + i * 3 + 2, mask=live, other=0.0)
    return x, y, z


@triton.jit
def _scatter(forces, i, fx, fy, fz, live):
    tl.atomic_add(forces + i * 3, fx, mask=live)
    tl.atomic_add(forces + i * 3 + 1, fy, mask=live)
    tl.atomic_add(forces + i * 3 + 2, fz, mask=live)


@triton.jit
def _periodic_torsion(pos, torsions, coeffs, forces, energy, n_terms, BLOCK: tl.constexpr):
    t = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    live = t < n_terms
    ia = tl.load(torsions + t * 4, mask=live, other=0)
    ib = tl.load(torsions + t * 4 + 1, mask=live, other=1)
    ic = tl.load(torsions + t * 4 + 2, mask=live, other=2)
    idd = tl.load(torsions + t * 4 + 3, mask=live, other=3)
    k = tl.load(coeffs + t * 3, mask=live, other=0.0)
    phase = tl.load(coeffs + t * 3 + 1, mask=live, other=0.0)
    period = tl.load(coeffs + t * 3 + 2, mask=live, other=1.0)
    ax, ay, az = _atom(pos, ia, live)
    bx, by, bz = _atom(pos, ib, live)
    cx, cy, cz = _atom(pos, ic, live)
    dx, dy, dz = _atom(pos, idd, live)
    v0x, v0y, v0z = ax - bx, ay - by, az - bz
    v1x, v1y, v1z = cx - bx, cy - by, cz - bz
    v2x, v2y, v2z = cx - dx, cy - dy, cz - dz
    p0x, p0y, p0z = v0y * v1z - v0z * v1y, v0z * v1x - v0x * v1z, v0x * v1y - v0y * v1x
    p1x, p1y, p1z = v1y * v2z - v1z * v2y, v1z * v2x - v1x * v2z, v1x * v2y - v1y * v2x
    norm0 = p0x * p0x + p0y * p0y + p0z * p0z
    norm1 = p1x * p1x + p1y * p1y + p1z * p1z
    bc2 = v1x * v1x + v1y * v1y + v1z * v1z
    bc = tl.sqrt(bc2)
    inv = 1.0 / tl.sqrt(norm0 * norm1)
    cos_phi = (p0x * p1x + p0y * p1y + p0z * p1z) * inv
    sin_phi = (v0x * p1x + v0y * p1y + v0z * p1z) * bc * inv
    n = period.to(tl.int32)
    cos_n = tl.full([BLOCK], 1.0, tl.float32)
    sin_n = tl.zeros([BLOCK], tl.float32)
    for j in tl.static_range(MAX_PERIOD):
        more = j < n
        cos_next = cos_n * cos_phi - sin_n * sin_phi
        sin_n = tl.where(more, sin_n * cos_phi + cos_n * sin_phi, sin_n)
        cos_n = tl.where(more, cos_next, cos_n)
    cos_ph = tl.cos(phase)
    sin_ph = tl.sin(phase)
    e = k * (1.0 + cos_n * cos_ph + sin_n * sin_ph)
    de = -k * period * (sin_n * cos_ph - cos_n * sin_ph)
    ff0 = -de * bc / norm0
    ff3 = de * bc / norm1
    ff1 = (v0x * v1x + v0y * v1y + v0z * v1z) / bc2
    ff2 = (v2x * v1x + v2y * v1y + v2z * v1z) / bc2
    f0x, f0y, f0z = ff0 * p0x, ff0 * p0y, ff0 * p0z
    f3x, f3y, f3z = ff3 * p1x, ff3 * p1y, ff3 * p1z
    sx, sy, sz = ff1 * f0x - ff2 * f3x, ff1 * f0y - ff2 * f3y, ff1 * f0z - ff2 * f3z
    _scatter(forces, ia, f0x, f0y, f0z, live)
    _scatter(forces, ib, sx - f0x, sy - f0y, sz - f0z, live)
    _scatter(forces, ic, -sx - f3x, -sy - f3y, -sz - f3z, live)
    _scatter(forces, idd, f3x, f3y, f3z, live)
    tl.atomic_add(energy, tl.sum(tl.where(live, e, 0.0), axis=0).to(tl.float64))


def run(pos: torch.Tensor, torsions: torch.Tensor, coeffs: torch.Tensor):
    n_terms = torsions.shape[0]
    forces = torch.zeros_like(pos)
    energy = torch.zeros(1, device=pos.device, dtype=torch.float64)
    BLOCK = 256
    _periodic_torsion[(triton.cdiv(n_terms, BLOCK),)](pos, torsions, coeffs, forces, energy, n_terms,
                                                      BLOCK=BLOCK, num_warps=4)
    return forces, energy
