"""Distance-field soft shadows: each program sphere-traces 128 shadow rays through a trilinear SDF volume."""
import torch
import triton
import triton.language as tl


@triton.jit
def _sample_sdf(sdf, px, py, pz, R):
    scale = 0.5 * (R - 1)
    gx = tl.minimum(tl.maximum((px + 1.0) * scale, 0.0), R - 1.0)
    gy = tl.minimum(tl.maximum((py + 1.0) * scale, 0.0), R - 1.0)
    gz = tl.minimum(tl.maximum((pz + 1.0) * scale, 0.0), R - 1.0)
    ix = tl.minimum(gx.to(tl.int32), R - 2)
    iy = tl.minimum(gy.to(tl.int32), R - 2)
    iz = tl.minimum(gz.to(tl.int32), R - 2)
    fx, fy, fz = gx - ix, gy - iy, gz - iz
    p000 = sdf + (iz * R + iy) * R + ix
    p010 = p000 + R
    p100 = p000 + R * R
    p110 = p100 + R
    c00 = tl.load(p000) * (1.0 - fx) + tl.load(p000 + 1) * fx
    c01 = tl.load(p010) * (1.0 - fx) + tl.load(p010 + 1) * fx
    c10 = tl.load(p100) * (1.0 - fx) + tl.load(p100 + 1) * fx
    c11 = tl.load(p110) * (1.0 - fx) + tl.load(p110 + 1) * fx
    c0 = c00 * (1.0 - fy) + c01 * fy
    c1 = c10 * (1.0 - fy) + c11 * fy
    return c0 * (1.0 - fz) + c1 * fz


@triton.jit
def _soft_shadow(points, light, sdf, out, N, R, K: tl.constexpr, T_MIN: tl.constexpr, MIN_STEP: tl.constexpr,
                 MAX_STEP: tl.constexpr, RES_EPS: tl.constexpr, MAX_STEPS: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    ox = tl.load(points + offs * 3, mask=mask, other=0.0)
    oy = tl.load(points + offs * 3 + 1, mask=mask, other=0.0)
    oz = tl.load(points + offs * 3 + 2, mask=mask, other=0.0)
    lx = tl.load(light) - ox
    ly = tl.load(light + 1) - oy
    lz = tl.load(light + 2) - oz
    tmax = tl.sqrt(lx * lx + ly * ly + lz * lz)
    lx, ly, lz = lx / tmax, ly / tmax, lz / tmax
    t = tl.full([BLOCK], T_MIN, tl.float32)
    res = tl.full([BLOCK], 1.0, tl.float32)
    live = mask
    for _ in range(MAX_STEPS):
        h = _sample_sdf(sdf, ox + t * lx, oy + t * ly, oz + t * lz, R)
        res = tl.where(live, tl.minimum(res, K * h / t), res)
        t = tl.where(live, t + tl.minimum(tl.maximum(h, MIN_STEP), MAX_STEP), t)
        live = live & (res > RES_EPS) & (t < tmax)
    tl.store(out + offs, tl.minimum(tl.maximum(res, 0.0), 1.0), mask=mask)


def run(points: torch.Tensor, light: torch.Tensor, sdf: torch.Tensor) -> torch.Tensor:
    N = points.shape[0]
    R = sdf.shape[0]
    out = torch.empty(N, device=points.device, dtype=torch.float32)
    BLOCK = 128
    _soft_shadow[(triton.cdiv(N, BLOCK),)](points, light, sdf, out, N, R, K=8.0, T_MIN=0.02, MIN_STEP=0.005,
                                           MAX_STEP=0.5, RES_EPS=5e-4, MAX_STEPS=128, BLOCK=BLOCK, num_warps=4)
    return out
