"""Constrained-transport face-field update (Athena++ Field::CT), one generic launch per component."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _ct_face_update(b, ea, eb, out, NK, NJ, NI, s_ak, s_aj, shift_a, s_bk, s_bj, shift_b,
                    dt_da, dt_db, BLOCK: tl.constexpr):
    """out = b + dt/da (ea[+shift_a] - ea) - dt/db (eb[+shift_b] - eb) over the [NK, NJ, NI] face array."""
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    total = NK * NJ * NI
    for blk in range(pid, tl.cdiv(total, BLOCK), nprog):
        offs = blk * BLOCK + tl.arange(0, BLOCK)
        mask = offs < total
        # the face array and the output are contiguous [NK, NJ, NI]: the flat index is their offset;
        # the edge arrays have their own shapes, so (k, j, i) is decoded to address them
        i = offs % NI
        j = (offs // NI) % NJ
        k = offs // (NI * NJ)
        oa = k * s_ak + j * s_aj + i
        oe = k * s_bk + j * s_bj + i
        bf = tl.load(b + offs, mask=mask, other=0.0)
        a0 = tl.load(ea + oa, mask=mask, other=0.0)
        a1 = tl.load(ea + oa + shift_a, mask=mask, other=0.0)
        e0 = tl.load(eb + oe, mask=mask, other=0.0)
        e1 = tl.load(eb + oe + shift_b, mask=mask, other=0.0)
        tl.store(out + offs, bf + dt_da * (a1 - a0) - dt_db * (e1 - e0), mask=mask)


def _update(b, ea, shift_a, da, eb, shift_b, db, dt):
    NK, NJ, NI = b.shape
    out = torch.empty_like(b)
    BLOCK = 2048
    grid = (min(_VECTOR_CORES, triton.cdiv(NK * NJ * NI, BLOCK)),)
    _ct_face_update[grid](b, ea, eb, out, NK, NJ, NI,
                          ea.stride(0), ea.stride(1), ea.stride(shift_a),
                          eb.stride(0), eb.stride(1), eb.stride(shift_b),
                          dt / da, dt / db, BLOCK=BLOCK)
    return out


def run(b1, b2, b3, e1, e2, e3, dt, dx1, dx2, dx3):
    # axis 0 = k (x3), 1 = j (x2), 2 = i (x1)
    n1 = _update(b1, e2, 0, dx3, e3, 1, dx2, dt)   # b1 -= dt (d e3/dx2 - d e2/dx3)
    n2 = _update(b2, e3, 2, dx1, e1, 0, dx3, dt)   # b2 += dt (d e3/dx1 - d e1/dx3)
    n3 = _update(b3, e1, 1, dx2, e2, 2, dx1, dt)   # b3 -= dt (d e2/dx1 - d e1/dx2)
    return n1, n2, n3
