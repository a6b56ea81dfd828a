"""ParFlow Richards face velocities: harmonic-mean permeability, upstream-weighted relative permeability."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _hmean(a, b):
    s = a + b
    return tl.where(s > 0.0, 2.0 * a * b / tl.where(s > 0.0, s, 1.0), 0.0)


@triton.jit
def _face_velocity(p, kr, kx, ky, kz, zmult, vx, vy, vz, nz, ny, nx, dx, dy, dz, gravity,
                   BR: tl.constexpr, BC: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    plane = ny * nx
    nrb = tl.cdiv(ny, BR)
    cols = tl.arange(0, BC)
    cm = cols < nx
    cme = cols + 1 < nx
    for blk in range(pid, nz * nrb, nprog):
        k = blk // nrb
        rb = blk - k * nrb
        rows = rb * BR + tl.arange(0, BR)
        rm = rows < ny
        rmn = rows + 1 < ny
        offs = k * plane + rows[:, None] * nx + cols[None, :]
        m = rm[:, None] & cm[None, :]
        me = rm[:, None] & cme[None, :]
        mn = rmn[:, None] & cm[None, :]
        mu = m & (k + 1 < nz)

        pc = tl.load(p + offs, mask=m, other=0.0)
        krc = tl.load(kr + offs, mask=m, other=0.0)

        # right face (+x)
        pe = tl.load(p + offs + 1, mask=me, other=0.0)
        kre = tl.load(kr + offs + 1, mask=me, other=0.0)
        d = pc - pe
        kr_up = tl.where(d >= 0.0, krc, kre)
        kh = _hmean(tl.load(kx + offs, mask=m, other=0.0), tl.load(kx + offs + 1, mask=me, other=0.0))
        tl.store(vx + offs, kh * kr_up * (d / dx), mask=m)

        # front face (+y)
        pn = tl.load(p + offs + nx, mask=mn, other=0.0)
        krn = tl.load(kr + offs + nx, mask=mn, other=0.0)
        d = pc - pn
        kr_up = tl.where(d >= 0.0, krc, krn)
        kh = _hmean(tl.load(ky + offs, mask=m, other=0.0), tl.load(ky + offs + nx, mask=mn, other=0.0))
        tl.store(vy + offs, kh * kr_up * (d / dy), mask=m)

        # upper face (+z), gravity split by the two cells' thickness multipliers
        z0 = tl.load(zmult + k)
        z1 = tl.load(zmult + tl.minimum(k + 1, nz - 1))
        sep = dz * 0.5 * (z0 + z1)
        pu = tl.load(p + offs + plane, mask=mu, other=0.0)
        kru = tl.load(kr + offs + plane, mask=mu, other=0.0)
        lo = pc / sep - gravity * z0 / (z0 + z1)
        hi = pu / sep + gravity * z1 / (z0 + z1)
        kr_up = tl.where(lo >= hi, krc, kru)
        kv = _hmean(tl.load(kz + offs, mask=m, other=0.0), tl.load(kz + offs + plane, mask=mu, other=0.0))
        tl.store(vz + offs, kv * kr_up * (lo - hi), mask=m)


def run(p, kr, kx, ky, kz, zmult, dx, dy, dz, gravity):
    nz, ny, nx = p.shape
    vx = torch.empty_like(p)
    vy = torch.empty_like(p)
    vz = torch.empty_like(p)
    BC = triton.next_power_of_2(nx)
    BR = max(1, 1024 // BC)
    grid = (min(_VECTOR_CORES, nz * triton.cdiv(ny, BR)),)
    _face_velocity[grid](p, kr, kx, ky, kz, zmult, vx, vy, vz, nz, ny, nx, dx, dy, dz, gravity,
                         BR=BR, BC=BC)
    return vx, vy, vz
