"""D3Q19 density and velocity of a cell-major (AoS) lattice, a block of cells per program."""
import torch
import triton
import triton.language as tl

Q = tl.constexpr(19)
# bit q set where c_q has a +1 / -1 component (Palabos D3Q19 ordering)
CX_POS = tl.constexpr(0b0011110010000000000)
CX_NEG = tl.constexpr(0b0000000000011110010)
CY_POS = tl.constexpr(0b1100010100000100000)
CY_NEG = tl.constexpr(0b0000100001100010100)
CZ_POS = tl.constexpr(0b0101001001010000000)
CZ_NEG = tl.constexpr(0b1010000000101001000)


@triton.jit
def _component(q, POS: tl.constexpr, NEG: tl.constexpr):
    pos = (tl.full(q.shape, POS, tl.int32) >> q) & 1
    neg = (tl.full(q.shape, NEG, tl.int32) >> q) & 1
    return (pos - neg).to(tl.float32)


@triton.jit
def _moments(f, out, n_cells, BLOCK: tl.constexpr, QPAD: tl.constexpr):
    cells = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    q = tl.arange(0, QPAD)
    live = cells < n_cells
    mask = live[:, None] & (q[None, :] < Q)
    fq = tl.load(f + cells[:, None] * Q + q[None, :], mask=mask, other=0.0)
    cx = _component(q, CX_POS, CX_NEG)
    cy = _component(q, CY_POS, CY_NEG)
    cz = _component(q, CZ_POS, CZ_NEG)
    rho = tl.sum(fq, axis=1)
    inv_rho = 1.0 / rho
    ux = tl.sum(fq * cx[None, :], axis=1) * inv_rho
    uy = tl.sum(fq * cy[None, :], axis=1) * inv_rho
    uz = tl.sum(fq * cz[None, :], axis=1) * inv_rho
    tl.store(out + cells, rho, mask=live)
    tl.store(out + n_cells + cells, ux, mask=live)
    tl.store(out + 2 * n_cells + cells, uy, mask=live)
    tl.store(out + 3 * n_cells + cells, uz, mask=live)


def run(f: torch.Tensor) -> torch.Tensor:
    nz, ny, nx, _ = f.shape
    n_cells = nz * ny * nx
    out = torch.empty((4, nz, ny, nx), device=f.device, dtype=torch.float32)
    BLOCK = 128
    _moments[(triton.cdiv(n_cells, BLOCK),)](f, out, n_cells, BLOCK=BLOCK, QPAD=32, num_warps=8)
    return out
