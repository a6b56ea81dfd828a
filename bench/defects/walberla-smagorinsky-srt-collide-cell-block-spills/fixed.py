"""D3Q19 SRT collision with a Smagorinsky eddy viscosity on a fzyx (SoA) lattice, a block of cells per program."""
import torch
import triton
import triton.language as tl

Q = tl.constexpr(19)
# bit q set where c_q has a +1 / -1 component (waLBerla D3Q19: C N S W E T B NW NE SW SE TN TS TW TE BN BS BW BE)
CX_POS = tl.constexpr(0b1000100010100010000)
CX_NEG = tl.constexpr(0b0100010001010001000)
CY_POS = tl.constexpr(0b0001000100110000010)
CY_NEG = tl.constexpr(0b0010001011000000100)
CZ_POS = tl.constexpr(0b0000111100000100000)
CZ_NEG = tl.constexpr(0b1111000000001000000)
SMAG_FACTOR = tl.constexpr(18.0 * 1.4142135623730951)


@triton.jit
def _component(q, POS: tl.constexpr, NEG: tl.constexpr):
    pos = (tl.full(q.shape, POS, tl.int32) >> q) & 1
    neg = (tl.full(q.shape, NEG, tl.int32) >> q) & 1
    return (pos - neg).to(tl.float32)


@triton.jit
def _smagorinsky_collide(f, f_out, n_cells, tau0, cs, BLOCK: tl.constexpr, QPAD: tl.constexpr):
    cells = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    q = tl.arange(0, QPAD)
    live = cells < n_cells
    mask = live[:, None] & (q[None, :] < Q)
    offs = q[None, :] * n_cells + cells[:, None]
    fq = tl.load(f + offs, mask=mask, other=0.0)
    cx = _component(q, CX_POS, CX_NEG)[None, :]
    cy = _component(q, CY_POS, CY_NEG)[None, :]
    cz = _component(q, CZ_POS, CZ_NEG)[None, :]
    w = tl.where(q == 0, 1.0 / 3.0, tl.where(q < 7, 1.0 / 18.0, tl.where(q < Q, 1.0 / 36.0, 0.0)))[None, :]

    rho = tl.where(live, tl.sum(fq, axis=1), 1.0)
    inv_rho = 1.0 / rho
    ux = tl.sum(fq * cx, axis=1) * inv_rho
    uy = tl.sum(fq * cy, axis=1) * inv_rho
    uz = tl.sum(fq * cz, axis=1) * inv_rho
    cu = cx * ux[:, None] + cy * uy[:, None] + cz * uz[:, None]
    usq = (ux * ux + uy * uy + uz * uz)[:, None]
    feq = w * rho[:, None] * (1.0 + 3.0 * cu + 4.5 * cu * cu - 1.5 * usq)
    fneq = fq - feq

    pxx = tl.sum(fneq * cx * cx, axis=1)
    pyy = tl.sum(fneq * cy * cy, axis=1)
    pzz = tl.sum(fneq * cz * cz, axis=1)
    pxy = tl.sum(fneq * cx * cy, axis=1)
    pxz = tl.sum(fneq * cx * cz, axis=1)
    pyz = tl.sum(fneq * cy * cz, axis=1)
    pi_norm = tl.sqrt(pxx * pxx + pyy * pyy + pzz * pzz + 2.0 * (pxy * pxy + pxz * pxz + pyz * pyz))
    tau = 0.5 * (tau0 + tl.sqrt(tau0 * tau0 + SMAG_FACTOR * cs * cs * pi_norm * inv_rho))
    tl.store(f_out + offs, fq - fneq * (1.0 / tau)[:, None], mask=mask)


def run(f: torch.Tensor, tau0: float, cs: float) -> torch.Tensor:
    n_cells = f[0].numel()
    f_out = torch.empty_like(f)
    BLOCK = 128
    _smagorinsky_collide[(triton.cdiv(n_cells, BLOCK),)](f, f_out, n_cells, tau0, cs, BLOCK=BLOCK, QPAD=32,
                                                         num_warps=4)
    return f_out
