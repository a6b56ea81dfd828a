"""Shape-matching rigid bodies (SPH_Taichi): centre of mass, A_pq, polar rotation R, goal positions c + R q."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
BLOCK = 512
NEWTON = 8


@triton.jit
def _polar_rotation(a00, a01, a02, a10, a11, a12, a20, a21, a22, NEWTON: tl.constexpr):
    # Newton iteration X <- (X + X^-T) / 2 on A scaled to unit RMS singular value
    s = tl.sqrt((a00 * a00 + a01 * a01 + a02 * a02 + a10 * a10 + a11 * a11 + a12 * a12
                 + a20 * a20 + a21 * a21 + a22 * a22) / 3.0)
    inv_s = 1.0 / tl.maximum(s, 1e-30)
    r00, r01, r02 = a00 * inv_s, a01 * inv_s, a02 * inv_s
    r10, r11, r12 = a10 * inv_s, a11 * inv_s, a12 * inv_s
    r20, r21, r22 = a20 * inv_s, a21 * inv_s, a22 * inv_s
    for _ in range(NEWTON):
        # cofactor rows: r1 x r2, r2 x r0, r0 x r1
        c00 = r11 * r22 - r12 * r21
        c01 = r12 * r20 - r10 * r22
        c02 = r10 * r21 - r11 * r20
        c10 = r21 * r02 - r22 * r01
        c11 = r22 * r00 - r20 * r02
        c12 = r20 * r01 - r21 * r00
        c20 = r01 * r12 - r02 * r11
        c21 = r02 * r10 - r00 * r12
        c22 = r00 * r11 - r01 * r10
        h = 0.5 / (r00 * c00 + r01 * c01 + r02 * c02)
        r00, r01, r02 = 0.5 * r00 + h * c00, 0.5 * r01 + h * c01, 0.5 * r02 + h * c02
        r10, r11, r12 = 0.5 * r10 + h * c10, 0.5 * r11 + h * c11, 0.5 * r12 + h * c12
        r20, r21, r22 = 0.5 * r20 + h * c20, 0.5 * r21 + h * c21, 0.5 * r22 + h * c22
    return r00, r01, r02, r10, r11, r12, r20, r21, r22


@triton.jit
def _body_frame(x, q, m, b, P, BLOCK: tl.constexpr, NEWTON: tl.constexpr):
    xb = x + b * 3 * P
    qb = q + b * 3 * P
    mb = m + b * P
    lanes = tl.arange(0, BLOCK)
    sm = tl.zeros([BLOCK], dtype=tl.float32)
    sx = tl.zeros([BLOCK], dtype=tl.float32)
    sy = tl.zeros([BLOCK], dtype=tl.float32)
    sz = tl.zeros([BLOCK], dtype=tl.float32)
    for k in range(0, P, BLOCK):
        offs = k + lanes
        ok = offs < P
        w = tl.load(mb + offs, mask=ok, other=0.0)
        sm += w
        sx += w * tl.load(xb + offs, mask=ok, other=0.0)
        sy += w * tl.load(xb + P + offs, mask=ok, other=0.0)
        sz += w * tl.load(xb + 2 * P + offs, mask=ok, other=0.0)
    inv_m = 1.0 / tl.sum(sm, axis=0)
    cx = tl.sum(sx, axis=0) * inv_m
    cy = tl.sum(sy, axis=0) * inv_m
    cz = tl.sum(sz, axis=0) * inv_m
    a00 = tl.zeros([BLOCK], dtype=tl.float32)
    a01 = tl.zeros([BLOCK], dtype=tl.float32)
    a02 = tl.zeros([BLOCK], dtype=tl.float32)
    a10 = tl.zeros([BLOCK], dtype=tl.float32)
    a11 = tl.zeros([BLOCK], dtype=tl.float32)
    a12 = tl.zeros([BLOCK], dtype=tl.float32)
    a20 = tl.zeros([BLOCK], dtype=tl.float32)
    a21 = tl.zeros([BLOCK], dtype=tl.float32)
    a22 = tl.zeros([BLOCK], dtype=tl.float32)
    for k in range(0, P, BLOCK):
        offs = k + lanes
        ok = offs < P
        w = tl.load(mb + offs, mask=ok, other=0.0)
        px = w * (tl.load(xb + offs, mask=ok, other=0.0) - cx)
        py = w * (tl.load(xb + P + offs, mask=ok, other=0.0) - cy)
        pz = w * (tl.load(xb + 2 * P + offs, mask=ok, other=0.0) - cz)
        qx = tl.load(qb + offs, mask=ok, other=0.0)
        qy = tl.load(qb + P + offs, mask=ok, other=0.0)
        qz = tl.load(qb + 2 * P + offs, mask=ok, other=0.0)
        a00 += px * qx
        a01 += px * qy
        a02 += px * qz
        a10 += py * qx
        a11 += py * qy
        a12 += py * qz
        a20 += pz * qx
        a21 += pz * qy
        a22 += pz * qz
    r00, r01, r02, r10, r11, r12, r20, r21, r22 = _polar_rotation(
        tl.sum(a00, axis=0), tl.sum(a01, axis=0), tl.sum(a02, axis=0),
        tl.sum(a10, axis=0), tl.sum(a11, axis=0), tl.sum(a12, axis=0),
        tl.sum(a20, axis=0), tl.sum(a21, axis=0), tl.sum(a22, axis=0), NEWTON)
    return cx, cy, cz, r00, r01, r02, r10, r11, r12, r20, r21, r22


@triton.jit
def _shape_match_goals(x, q, m, goal, NB, P, BLOCK: tl.constexpr, NEWTON: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    # one body per step: its frame once, then every particle tile of the body
    for b in range(pid, NB, nprog):
        cx, cy, cz, r00, r01, r02, r10, r11, r12, r20, r21, r22 = _body_frame(x, q, m, b, P, BLOCK, NEWTON)
        for t in range(0, tl.cdiv(P, BLOCK)):
            offs = t * BLOCK + tl.arange(0, BLOCK)
            ok = offs < P
            qb = q + b * 3 * P
            gb = goal + b * 3 * P
            qx = tl.load(qb + offs, mask=ok, other=0.0)
            qy = tl.load(qb + P + offs, mask=ok, other=0.0)
            qz = tl.load(qb + 2 * P + offs, mask=ok, other=0.0)
            tl.store(gb + offs, cx + r00 * qx + r01 * qy + r02 * qz, mask=ok)
            tl.store(gb + P + offs, cy + r10 * qx + r11 * qy + r12 * qz, mask=ok)
            tl.store(gb + 2 * P + offs, cz + r20 * qx + r21 * qy + r22 * qz, mask=ok)


def run(x: torch.Tensor, q: torch.Tensor, m: torch.Tensor) -> torch.Tensor:
    nb, _, p = x.shape
    goal = torch.empty_like(x)
    grid = (min(_VECTOR_CORES, nb),)
    _shape_match_goals[grid](x, q, m, goal, nb, p, BLOCK=BLOCK, NEWTON=NEWTON)
    return goal
