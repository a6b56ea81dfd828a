"""Constrained-transport face-field update (Athena++ Field::CT), one generic launch per component."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _ct_face_update(b, ea, eb, out, NK, NJ, NI, s_ak, s_aj, shift_a, s_bk, s_bj, shift_b,
                    dt_da, dt_db, BJ: tl.constexpr, BI: tl.constexpr):
    """out = b + dt/da (ea[+shift_a] - ea) - dt/db (eb[+shift_b] - eb) over the [NK, NJ, NI] face array."""
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    n_jb = tl.cdiv(NJ, BJ)
    ii = tl.arange(0, BI)
    for u in range(pid, NK * n_jb, nprog):
        k = u // n_jb
        jj = (u % n_jb) * BJ + tl.arange(0, BJ)
        mask = (jj < NJ)[:, None] & (ii < NI)[None, :]
        # the face array and the output are contiguous [NK, NJ, NI]; the edge arrays have their own shapes
        ob = k * NJ * NI + jj[:, None] * NI + ii[None, :]
        oa = k * s_ak + jj[:, None] * s_aj + ii[None, :]
        oe = k * s_bk + jj[:, None] * s_bj + ii[None, :]
        bf = tl.load(b + ob, mask=mask, other=0.0)
        a0 = tl.load(ea + oa, mask=mask, other=0.0)
        a1 = tl.load(ea + oa + shift_a, mask=mask, other=0.0)
        e0 = tl.load(eb + oe, mask=mask, other=0.0)
        e1 = tl.load(eb + oe + shift_b, mask=mask, other=0.0)
        tl.store(out + ob, bf + dt_da * (a1 - a0) - dt_db * (e1 - e0), mask=mask)


def _update(b, ea, shift_a, da, eb, shift_b, db, dt):
    NK, NJ, NI = b.shape
    out = torch.empty_like(b)
    BI = triton.next_power_of_2(NI)
    BJ = max(1, 2048 // BI)
    grid = (min(_VECTOR_CORES, NK * triton.cdiv(NJ, BJ)),)
    _ct_face_update[grid](b, ea, eb, out, NK, NJ, NI,
                          ea.stride(0), ea.stride(1), ea.stride(shift_a),
                          eb.stride(0), eb.stride(1), eb.stride(shift_b),
                          dt / da, dt / db, BJ=BJ, BI=BI)
    return out


def run(b1, b2, b3, e1, e2, e3, dt, dx1, dx2, dx3):
    # axis 0 = k (x3), 1 = j (x2), 2 = i (x1)
    n1 = _update(b1, e2, 0, dx3, e3, 1, dx2, dt)   # b1 -= dt (d e3/dx2 - d e2/dx3)
    n2 = _update(b2, e3, 2, dx1, e1, 0, dx3, dt)   # b2 += dt (d e3/dx1 - d e1/dx3)
    n3 = _update(b3, e1, 1, dx2, e2, 2, dx1, dt)   # b3 -= dt (d e2/dx1 - d e1/dx2)
    return n1, n2, n3
