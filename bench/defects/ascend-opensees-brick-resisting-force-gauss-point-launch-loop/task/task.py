"""Element resisting forces of 8-node bricks (OpenSees stdBrick::getResistingForce) on a regular soil mesh.

For every brick e the internal (resisting) force vector is the Gauss-point sum
    P_e = sum_q B_q^T sigma_{e,q} detJ_q w_q          (2x2x2 Gauss rule, q = 0..7)
with B_q the 6x24 strain-displacement matrix of the trilinear brick at Gauss point q (Voigt order
xx, yy, zz, xy, yz, zx with engineering shear, OpenSees' ordering) and sigma the material stresses
returned by the NDMaterial at each point. On a regular mesh of identical h_x x h_y x h_z bricks (a site-
response soil column / box model) B_q detJ_q w_q is the same for every element, so it is precomputed once
(as FEValues / the element's shape-function cache would) into bt[q] = B_q^T detJ w_q, [8, 24, 6].

Layouts (structure-of-arrays over elements, as a GPU port of the element loop stores them):
    sig [8 Gauss points, 6 components, E] fp32,  bt [8, 24, 6] fp32  ->  P [24 element dofs, E] fp32
(dof k = 3 * node + direction, nodes in OpenSees brick order).
"""
import math

import torch

META = {
    "name": "brick_resisting_force",
    "level": 2,
    "category": "fem-assembly",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-2, "rtol": 2e-3}},
    "sizes": {
        "small": {"E": 50},
        "ragged": {"E": 77},
        "large": {"E": 2097152},
    },
    "baseline_notes": "One launch: 20 programs (the A2's AI cores; the kernel has a tl.dot) loop over blocks of "
                      "256 elements; per block a [32, 256] fp32 accumulator (24 dofs padded) collects "
                      "tl.dot(bt[q] [32, 16], sig[q] [16, 256]) over the 8 Gauss points in an in-kernel loop and is "
                      "stored once; masks pad 24 -> 32 dofs and 6 -> 16 stress components (the dot's minimum "
                      "K); no autotune.",
    "deterministic": True,
}
N_GAUSS = 8
HX, HY, HZ = 0.5, 0.5, 0.25   # brick size, metres


def brick_bt(hx: float = HX, hy: float = HY, hz: float = HZ) -> torch.Tensor:
    """B_q^T detJ w_q of the trilinear 8-node brick at its 2x2x2 Gauss points, [8, 24, 6] float64."""
    nodes = [(-1, -1, -1), (1, -1, -1), (1, 1, -1), (-1, 1, -1),
             (-1, -1, 1), (1, -1, 1), (1, 1, 1), (-1, 1, 1)]
    g = 1.0 / math.sqrt(3.0)
    gauss = [(sx * g, sy * g, sz * g) for sz in (-1, 1) for sy in (-1, 1) for sx in (-1, 1)]
    det_j = hx * hy * hz / 8.0
    bt = torch.zeros(N_GAUSS, 24, 6, dtype=torch.float64)
    for q, (xi, eta, zeta) in enumerate(gauss):
        for a, (xa, ya, za) in enumerate(nodes):
            nx = xa * (1 + eta * ya) * (1 + zeta * za) / 8.0 * (2.0 / hx)
            ny = ya * (1 + xi * xa) * (1 + zeta * za) / 8.0 * (2.0 / hy)
            nz = za * (1 + xi * xa) * (1 + eta * ya) / 8.0 * (2.0 / hz)
            b = torch.zeros(6, 3, dtype=torch.float64)
            b[0, 0], b[1, 1], b[2, 2] = nx, ny, nz
            b[3, 0], b[3, 1] = ny, nx
            b[4, 1], b[4, 2] = nz, ny
            b[5, 0], b[5, 2] = nz, nx
            bt[q, 3 * a:3 * a + 3, :] = b.T * det_j  # Gauss weight 1
    return bt


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Gauss-point stresses sig [8, 6, E] (kPa, geostatic + shaking) and the shared bt table [8, 24, 6]."""
    n_el = META["sizes"][size]["E"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    depth = 30.0 * torch.rand(n_el, generator=g, dtype=torch.float64)
    sv = -18.0 * depth                                   # vertical effective stress, gamma = 18 kN/m^3
    sig = torch.empty(N_GAUSS, 6, n_el, dtype=torch.float64)
    sig[:, 0] = 0.5 * sv                                 # K0 = 0.5
    sig[:, 1] = 0.5 * sv
    sig[:, 2] = sv
    sig[:, 3:] = 30.0 * torch.randn(3, n_el, generator=g, dtype=torch.float64)
    sig *= 1.0 + 0.05 * torch.randn(N_GAUSS, 6, n_el, generator=g, dtype=torch.float64)
    return sig.to(dt).to(device), brick_bt().to(dt).to(device)


def reference(sig: torch.Tensor, bt: torch.Tensor) -> torch.Tensor:
    return torch.einsum("qkc,qce->ke", bt.double(), sig.double()).to(sig.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    n_el = META["sizes"][size]["E"]
    return {"bytes": (N_GAUSS * 6 + 24) * 4 * n_el, "flops": 2 * N_GAUSS * 6 * 24 * n_el}
