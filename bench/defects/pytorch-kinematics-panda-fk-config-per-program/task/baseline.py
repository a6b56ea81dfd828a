"""Batched forward kinematics of a serial revolute chain: world [R | t] of every link."""
import torch
import triton
import triton.language as tl


@triton.jit
def _axis_angle(ax, ay, az, q):
    c = tl.cos(q)
    s = tl.sin(q)
    v = 1.0 - c
    return (c + ax * ax * v, ax * ay * v - az * s, ax * az * v + ay * s,
            ay * ax * v + az * s, c + ay * ay * v, ay * az * v - ax * s,
            az * ax * v - ay * s, az * ay * v + ax * s, c + az * az * v)


@triton.jit
def _mul3(a, b):
    return (a[0] * b[0] + a[1] * b[3] + a[2] * b[6], a[0] * b[1] + a[1] * b[4] + a[2] * b[7],
            a[0] * b[2] + a[1] * b[5] + a[2] * b[8],
            a[3] * b[0] + a[4] * b[3] + a[5] * b[6], a[3] * b[1] + a[4] * b[4] + a[5] * b[7],
            a[3] * b[2] + a[4] * b[5] + a[5] * b[8],
            a[6] * b[0] + a[7] * b[3] + a[8] * b[6], a[6] * b[1] + a[7] * b[4] + a[8] * b[7],
            a[6] * b[2] + a[7] * b[5] + a[8] * b[8])


@triton.jit
def _load_origin(origins, j):
    o = origins + j * 12
    rot = (tl.load(o + 0), tl.load(o + 1), tl.load(o + 2),
           tl.load(o + 4), tl.load(o + 5), tl.load(o + 6),
           tl.load(o + 8), tl.load(o + 9), tl.load(o + 10))
    return rot, (tl.load(o + 3), tl.load(o + 7), tl.load(o + 11))


@triton.jit
def _store_frame(ptr, rot, pos, mask):
    tl.store(ptr + 0, rot[0], mask=mask)
    tl.store(ptr + 1, rot[1], mask=mask)
    tl.store(ptr + 2, rot[2], mask=mask)
    tl.store(ptr + 3, pos[0], mask=mask)
    tl.store(ptr + 4, rot[3], mask=mask)
    tl.store(ptr + 5, rot[4], mask=mask)
    tl.store(ptr + 6, rot[5], mask=mask)
    tl.store(ptr + 7, pos[1], mask=mask)
    tl.store(ptr + 8, rot[6], mask=mask)
    tl.store(ptr + 9, rot[7], mask=mask)
    tl.store(ptr + 10, rot[8], mask=mask)
    tl.store(ptr + 11, pos[2], mask=mask)


@triton.jit
def _chain_fk(q, origins, axes, frames, n_cfg, N_JOINTS: tl.constexpr, BLOCK: tl.constexpr):
    cfg = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    live = cfg < n_cfg
    rot = (1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0)
    pos = (0.0, 0.0, 0.0)
    for j in tl.static_range(N_JOINTS):
        o_rot, o_t = _load_origin(origins, j)
        pos = (rot[0] * o_t[0] + rot[1] * o_t[1] + rot[2] * o_t[2] + pos[0],
               rot[3] * o_t[0] + rot[4] * o_t[1] + rot[5] * o_t[2] + pos[1],
               rot[6] * o_t[0] + rot[7] * o_t[1] + rot[8] * o_t[2] + pos[2])
        ang = tl.load(q + cfg * N_JOINTS + j, mask=live, other=0.0)
        turn = _axis_angle(tl.load(axes + 3 * j), tl.load(axes + 3 * j + 1), tl.load(axes + 3 * j + 2), ang)
        rot = _mul3(_mul3(rot, o_rot), turn)
        _store_frame(frames + (cfg * N_JOINTS + j) * 12, rot, pos, live)


def run(q: torch.Tensor, origins: torch.Tensor, axes: torch.Tensor) -> torch.Tensor:
    E, J = q.shape
    frames = torch.empty((E, J, 3, 4), device=q.device, dtype=torch.float32)
    BLOCK = 128
    _chain_fk[(triton.cdiv(E, BLOCK),)](q, origins, axes, frames, E, N_JOINTS=J, BLOCK=BLOCK, num_warps=4)
    return frames
