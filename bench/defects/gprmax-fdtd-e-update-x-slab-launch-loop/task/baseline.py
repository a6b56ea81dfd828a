"""gprMax FDTD electric-field update (Ex, Ey, Ez from the curl of H), out of place."""
import torch
import triton
import triton.language as tl


@triton.jit
def _component(Ec, Ha, Hb, IDc, C, off, inside, upd, step_a, step_b, IA: tl.constexpr, IB: tl.constexpr):
    e = tl.load(Ec + off, mask=inside, other=0.0)
    m = tl.load(IDc + off, mask=upd, other=0)
    c0 = tl.load(C + m * 5, mask=upd, other=1.0)
    ca = tl.load(C + m * 5 + IA, mask=upd, other=0.0)
    cb = tl.load(C + m * 5 + IB, mask=upd, other=0.0)
    da = tl.load(Ha + off, mask=upd, other=0.0) - tl.load(Ha + off - step_a, mask=upd, other=0.0)
    db = tl.load(Hb + off, mask=upd, other=0.0) - tl.load(Hb + off - step_b, mask=upd, other=0.0)
    return tl.where(upd, c0 * e + ca * da - cb * db, e)


@triton.jit
def _update_e(E, H, ID, C, out, NX, NY, NZ, BJ: tl.constexpr, BK: tl.constexpr):
    i = tl.program_id(2)
    j = tl.program_id(1) * BJ + tl.arange(0, BJ)[:, None]
    k = tl.program_id(0) * BK + tl.arange(0, BK)[None, :]
    sy = NZ + 1
    sx = (NY + 1) * sy
    n = (NX + 1) * sx
    off = i * sx + j * sy + k
    inside = (j <= NY) & (k <= NZ)
    jin = (j > 0) & (j < NY)
    kin = (k > 0) & (k < NZ)
    iin = (i > 0) & (i < NX)
    ex = _component(E, H + 2 * n, H + n, ID, C, off, inside, inside & (i < NX) & jin & kin, sy, 1, 2, 3)
    ey = _component(E + n, H, H + 2 * n, ID + n, C, off, inside, inside & iin & (j < NY) & kin, 1, sx, 3, 1)
    ez = _component(E + 2 * n, H + n, H, ID + 2 * n, C, off, inside, inside & iin & jin & (k < NZ), sx, sy, 1, 2)
    tl.store(out + off, ex, mask=inside)
    tl.store(out + n + off, ey, mask=inside)
    tl.store(out + 2 * n + off, ez, mask=inside)


def run(E: torch.Tensor, H: torch.Tensor, ID: torch.Tensor, C: torch.Tensor) -> torch.Tensor:
    NX, NY, NZ = E.shape[1] - 1, E.shape[2] - 1, E.shape[3] - 1
    out = torch.empty_like(E)
    BJ, BK = 8, 128
    grid = (triton.cdiv(NZ + 1, BK), triton.cdiv(NY + 1, BJ), NX + 1)
    _update_e[grid](E, H, ID, C, out, NX, NY, NZ, BJ=BJ, BK=BK, num_warps=4)
    return out
