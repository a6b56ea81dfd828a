"""Charged-track RK4 propagation through an r-z solenoid field map (AdePT / Celeritas along-step)."""
import torch
import triton
import triton.language as tl

C_LIGHT = 0.299792458
B_NOM = 3.8
DELTA_CHORD = 0.25
MAX_SUBSTEPS = 100
Z_MIN = -16000.0
SPACING = 50.0
BLOCK = 128


@triton.jit
def _field(bmap, x, y, z, NR: tl.constexpr, NZ: tl.constexpr, Z_MIN: tl.constexpr, SPACING: tl.constexpr):
    """Bilinear (r, z) interpolation of (Bz, Br), turned into cartesian (Bx, By, Bz)."""
    r = tl.sqrt(x * x + y * y)
    fr = tl.minimum(tl.maximum(r / SPACING, 0.0), NR - 1.0)
    fz = tl.minimum(tl.maximum((z - Z_MIN) / SPACING, 0.0), NZ - 1.0)
    ir = tl.minimum(fr.to(tl.int32), NR - 2)
    iz = tl.minimum(fz.to(tl.int32), NZ - 2)
    ar = fr - ir.to(tl.float32)
    az = fz - iz.to(tl.float32)
    node = (iz * NR + ir) * 2
    bz00 = tl.load(bmap + node)
    br00 = tl.load(bmap + node + 1)
    bz01 = tl.load(bmap + node + 2)
    br01 = tl.load(bmap + node + 3)
    bz10 = tl.load(bmap + node + 2 * NR)
    br10 = tl.load(bmap + node + 2 * NR + 1)
    bz11 = tl.load(bmap + node + 2 * NR + 2)
    br11 = tl.load(bmap + node + 2 * NR + 3)
    bz = (1.0 - az) * ((1.0 - ar) * bz00 + ar * bz01) + az * ((1.0 - ar) * bz10 + ar * bz11)
    br = (1.0 - az) * ((1.0 - ar) * br00 + ar * br01) + az * ((1.0 - ar) * br10 + ar * br11)
    inv_r = tl.where(r > 0.0, 1.0 / tl.maximum(r, 1e-30), 0.0)
    return br * x * inv_r, br * y * inv_r, bz


@triton.jit
def _lorentz(bmap, x, y, z, ux, uy, uz, kappa,
             NR: tl.constexpr, NZ: tl.constexpr, Z_MIN: tl.constexpr, SPACING: tl.constexpr):
    """du/ds = kappa * u x B(x)."""
    bx, by, bz = _field(bmap, x, y, z, NR, NZ, Z_MIN, SPACING)
    return kappa * (uy * bz - uz * by), kappa * (uz * bx - ux * bz), kappa * (ux * by - uy * bx)


@triton.jit
def _propagate(pos, dirn, mom, charge, step, bmap, out_pos, out_dir, n,
               NR: tl.constexpr, NZ: tl.constexpr, Z_MIN: tl.constexpr, SPACING: tl.constexpr,
               C_LIGHT: tl.constexpr, B_NOM: tl.constexpr, DELTA_CHORD: tl.constexpr,
               MAX_SUBSTEPS: tl.constexpr, BLOCK: tl.constexpr):
    t = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = t < n
    x = tl.load(pos + 3 * t, mask=ok, other=0.0)
    y = tl.load(pos + 3 * t + 1, mask=ok, other=0.0)
    z = tl.load(pos + 3 * t + 2, mask=ok, other=0.0)
    ux = tl.load(dirn + 3 * t, mask=ok, other=1.0)
    uy = tl.load(dirn + 3 * t + 1, mask=ok, other=0.0)
    uz = tl.load(dirn + 3 * t + 2, mask=ok, other=0.0)
    p = tl.load(mom + t, mask=ok, other=1.0)
    q = tl.load(charge + t, mask=ok, other=0.0)
    s = tl.load(step + t, mask=ok, other=0.0)
    kappa = C_LIGHT * q / p
    # chord criterion at the nominal field: substep <= sqrt(8 * delta * R_nom)
    h_max = tl.sqrt(8.0 * DELTA_CHORD * p / (C_LIGHT * B_NOM))
    n_sub = tl.minimum(tl.maximum(tl.ceil(s / h_max), 1.0), MAX_SUBSTEPS).to(tl.int32)
    h = s / n_sub.to(tl.float32)
    n_sub = tl.where(ok, n_sub, 0)
    for i in range(0, tl.max(n_sub, axis=0)):
        live = n_sub > i
        a1x, a1y, a1z = _lorentz(bmap, x, y, z, ux, uy, uz, kappa, NR, NZ, Z_MIN, SPACING)
        x2 = x + 0.5 * h * ux
        y2 = y + 0.5 * h * uy
        z2 = z + 0.5 * h * uz
        v2x = ux + 0.5 * h * a1x
        v2y = uy + 0.5 * h * a1y
        v2z = uz + 0.5 * h * a1z
        a2x, a2y, a2z = _lorentz(bmap, x2, y2, z2, v2x, v2y, v2z, kappa, NR, NZ, Z_MIN, SPACING)
        x3 = x + 0.5 * h * v2x
        y3 = y + 0.5 * h * v2y
        z3 = z + 0.5 * h * v2z
        v3x = ux + 0.5 * h * a2x
        v3y = uy + 0.5 * h * a2y
        v3z = uz + 0.5 * h * a2z
        a3x, a3y, a3z = _lorentz(bmap, x3, y3, z3, v3x, v3y, v3z, kappa, NR, NZ, Z_MIN, SPACING)
        x4 = x + h * v3x
        y4 = y + h * v3y
        z4 = z + h * v3z
        v4x = ux + h * a3x
        v4y = uy + h * a3y
        v4z = uz + h * a3z
        a4x, a4y, a4z = _lorentz(bmap, x4, y4, z4, v4x, v4y, v4z, kappa, NR, NZ, Z_MIN, SPACING)
        x = tl.where(live, x + h / 6.0 * (ux + 2.0 * v2x + 2.0 * v3x + v4x), x)
        y = tl.where(live, y + h / 6.0 * (uy + 2.0 * v2y + 2.0 * v3y + v4y), y)
        z = tl.where(live, z + h / 6.0 * (uz + 2.0 * v2z + 2.0 * v3z + v4z), z)
        ux = tl.where(live, ux + h / 6.0 * (a1x + 2.0 * a2x + 2.0 * a3x + a4x), ux)
        uy = tl.where(live, uy + h / 6.0 * (a1y + 2.0 * a2y + 2.0 * a3y + a4y), uy)
        uz = tl.where(live, uz + h / 6.0 * (a1z + 2.0 * a2z + 2.0 * a3z + a4z), uz)
    norm = tl.sqrt(ux * ux + uy * uy + uz * uz)
    tl.store(out_pos + 3 * t, x, mask=ok)
    tl.store(out_pos + 3 * t + 1, y, mask=ok)
    tl.store(out_pos + 3 * t + 2, z, mask=ok)
    tl.store(out_dir + 3 * t, ux / norm, mask=ok)
    tl.store(out_dir + 3 * t + 1, uy / norm, mask=ok)
    tl.store(out_dir + 3 * t + 2, uz / norm, mask=ok)


def run(pos, direction, p, charge, step, bmap) -> tuple:
    n = p.shape[0]
    out_pos = torch.empty_like(pos)
    out_dir = torch.empty_like(direction)
    _propagate[(triton.cdiv(n, BLOCK),)](pos, direction, p, charge, step, bmap, out_pos, out_dir, n,
                                         NR=bmap.shape[1], NZ=bmap.shape[0], Z_MIN=Z_MIN, SPACING=SPACING,
                                         C_LIGHT=C_LIGHT, B_NOM=B_NOM, DELTA_CHORD=DELTA_CHORD,
                                         MAX_SUBSTEPS=MAX_SUBSTEPS, BLOCK=BLOCK, num_warps=4)
    return out_pos, out_dir
