"""D3Q19 density and velocity of a cell-major (AoS) lattice, one program per cell."""
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
def _moments(f, out, n_cells, QPAD: tl.constexpr):
    cell = tl.program_id(0)
    q = tl.arange(0, QPAD)
    fq = tl.load(f + cell * Q + q, mask=q < Q, other=0.0)
    rho = tl.sum(fq, axis=0)
    inv_rho = 1.0 / rho
    ux = tl.sum(fq * _component(q, CX_POS, CX_NEG), axis=0) * inv_rho
    uy = tl.sum(fq * _component(q, CY_POS, CY_NEG), axis=0) * inv_rho
    uz = tl.sum(fq * _component(q, CZ_POS, CZ_NEG), axis=0) * inv_rho
    tl.store(out + cell, rho)
    tl.store(out + n_cells + cell, ux)
    tl.store(out + 2 * n_cells + cell, uy)
    tl.store(out + 3 * n_cells + cell, uz)


def run(f: torch.Tensor) -> torch.Tensor:
    nz, ny, nx, _ = f.shape
    n_cells = nz * ny * nx
    out = torch.empty((4, nz, ny, nx), device=f.device, dtype=torch.float32)
    _moments[(n_cells,)](f, out, n_cells, QPAD=32, num_warps=1)
    return out
