"""Tracer halo pack: the four boundary strips of every tracer into one send buffer (W, E, S, N)."""
import torch
import triton
import triton.language as tl

BLOCK_J = 64


@triton.jit
def _pack_ew(tr, buf, t, side, nz, ny, nx, nxd, nyd, msg_len,
             H: tl.constexpr, HP: tl.constexpr, BLOCK_J: tl.constexpr):
    """One program: level k of tracer t, west (side 0) or east (side 1) strip, [BLOCK_J, h] tiles."""
    k = tl.program_id(0)
    i0 = H + side * (nx - H)                   # first packed column in the data domain
    src = tr + (t * nz + k) * nyd * nxd
    dst = buf + side * msg_len + (t * nz + k) * ny * H
    ii = tl.arange(0, HP)
    for j0 in range(0, ny, BLOCK_J):
        jj = j0 + tl.arange(0, BLOCK_J)
        m = (jj < ny)[:, None] & (ii < H)[None, :]
        v = tl.load(src + (jj + H)[:, None] * nxd + (i0 + ii)[None, :], mask=m)
        tl.store(dst + jj[:, None] * H + ii[None, :], v, mask=m)


@triton.jit
def _pack_ns(tr, buf, t, side, nz, ny, nx, nxd, nyd, msg_off, msg_len,
             H: tl.constexpr, HP: tl.constexpr, BLOCK_I: tl.constexpr):
    """One program: level k of tracer t, south (side 0) or north (side 1) strip, one [h, nx] tile."""
    k = tl.program_id(0)
    j0 = H + side * (ny - H)                   # first packed row in the data domain
    src = tr + (t * nz + k) * nyd * nxd
    dst = buf + msg_off + side * msg_len + (t * nz + k) * H * nx
    jj = tl.arange(0, HP)
    ii = tl.arange(0, BLOCK_I)
    m = (jj < H)[:, None] & (ii < nx)[None, :]
    v = tl.load(src + (j0 + jj)[:, None] * nxd + (ii + H)[None, :], mask=m)
    tl.store(dst + jj[:, None] * nx + ii[None, :], v, mask=m)


def run(tr: torch.Tensor, h: int) -> torch.Tensor:
    ntr, nz, nyd, nxd = tr.shape
    ny, nx = nyd - 2 * h, nxd - 2 * h
    ew_len = ntr * nz * ny * h                 # one E/W message
    ns_len = ntr * nz * h * nx                 # one N/S message
    buf = torch.empty(2 * ew_len + 2 * ns_len, device=tr.device, dtype=tr.dtype)
    hp = triton.next_power_of_2(h)
    for t in range(ntr):                       # one pass per field and neighbour, as the Fortran pack loops
        for side in range(2):
            _pack_ew[(nz,)](tr, buf, t, side, nz, ny, nx, nxd, nyd, ew_len,
                            H=h, HP=hp, BLOCK_J=BLOCK_J, num_warps=4)
        for side in range(2):
            _pack_ns[(nz,)](tr, buf, t, side, nz, ny, nx, nxd, nyd, 2 * ew_len, ns_len,
                            H=h, HP=hp, BLOCK_I=triton.next_power_of_2(nx), num_warps=4)
    return buf
