"""Average plaquette of an SU(3) gauge field (QUDA plaquette(): GaugePlaq reduction, include/kernels/gauge_plaq.cuh).

For every site x of an X x Y x Z x T periodic lattice and every plane mu < nu,
    P_{mu nu}(x) = Re Tr[ U_mu(x) U_nu(x + mu) U_mu(x + nu)^dagger U_nu(x)^dagger ].
The three planes with mu, nu < 3 are spatial, the three with nu = 3 temporal. Like QUDA, the result is
(average, spatial, temporal) with spatial = sum / (3 colours x 3 planes x V), temporal likewise and
average = (spatial + temporal) / 2; a unit gauge field gives (1, 1, 1). The links are fp32 in a
structure-of-arrays order, gauge[mu, k, site] with k = 2 * (3 * row + col) + (0 re | 1 im) and the
lexicographic site = x + X * (y + Y * (z + Z * t)). Returns fp32 [3].
"""
import torch

META = {
    "name": "gauge_plaquette",
    "level": 2,
    "category": "lattice-qcd",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"X": 4, "Y": 4, "Z": 4, "T": 4},
        "ragged": {"X": 6, "Y": 5, "Z": 3, "T": 7},
        "large": {"X": 32, "Y": 32, "Z": 32, "T": 32},
    },
    "baseline_notes": "1-D grid over blocks of 128 sites; per plane the two staple halves U_mu(x) U_nu(x+mu) and "
                      "U_nu(x) U_mu(x+nu) are formed as [128, 4, 4] complex tiles (3x3 padded) from coalesced "
                      "column / row loads, Re Tr(P Q^dagger) is summed per site, the block's spatial and temporal "
                      "sums are reduced in registers and added with one fp64 atomic each per program; a one-"
                      "program kernel normalises. 4 warps, no autotune.",
    "deterministic": True,
}


def _su3_near_identity(n: int, eps: float, g: torch.Generator) -> torch.Tensor:
    """n SU(3) matrices as fp32 [n, 3, 3, 2] (re, im): rows 0, 1 of I + eps * Gaussian made orthonormal
    (Gram-Schmidt), row 2 = conj(row0 x row1) so that det = 1. Real arithmetic: fast on the CPU at 4 M links."""
    m = eps * torch.randn(n, 2, 3, 2, generator=g)
    m[:, 0, 0, 0] += 1.0
    m[:, 1, 1, 0] += 1.0
    a, b = m[:, 0], m[:, 1]                                    # [n, 3, 2]
    a = a / a.pow(2).sum((1, 2), keepdim=True).sqrt()
    # b -= <a, b> a with <a, b> = sum conj(a) b
    ip_re = (a[..., 0] * b[..., 0] + a[..., 1] * b[..., 1]).sum(1, keepdim=True)
    ip_im = (a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]).sum(1, keepdim=True)
    b = b - torch.stack((ip_re * a[..., 0] - ip_im * a[..., 1], ip_re * a[..., 1] + ip_im * a[..., 0]), -1)
    b = b / b.pow(2).sum((1, 2), keepdim=True).sqrt()
    i, j = [1, 2, 0], [2, 0, 1]
    c_re = a[:, i, 0] * b[:, j, 0] - a[:, i, 1] * b[:, j, 1] - (a[:, j, 0] * b[:, i, 0] - a[:, j, 1] * b[:, i, 1])
    c_im = a[:, i, 0] * b[:, j, 1] + a[:, i, 1] * b[:, j, 0] - (a[:, j, 0] * b[:, i, 1] + a[:, j, 1] * b[:, i, 0])
    c = torch.stack((c_re, -c_im), -1)                         # conj(a x b)
    return torch.stack((a, b, c), 1)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """gauge [4, 18, V] (SU(3) links near the identity: plaquette ~0.6, like a quenched beta = 6.0
    configuration) and the lattice extents X, Y, Z, T."""
    s = META["sizes"][size]
    X, Y, Z, T = s["X"], s["Y"], s["Z"], s["T"]
    v = X * Y * Z * T
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    u = _su3_near_identity(4 * v, 0.22, g)
    gauge = u.reshape(4, v, 18).permute(0, 2, 1).contiguous()
    return gauge.to(dt).to(device), X, Y, Z, T


def reference(gauge: torch.Tensor, X: int, Y: int, Z: int, T: int) -> torch.Tensor:
    v = X * Y * Z * T
    u = torch.view_as_complex(gauge.double().permute(0, 2, 1).reshape(4, v, 9, 2).contiguous())
    u = u.reshape(4, T, Z, Y, X, 3, 3)
    axis = {0: 3, 1: 2, 2: 1, 3: 0}          # direction -> lattice axis of [T, Z, Y, X]
    sums = [0.0, 0.0]
    for mu in range(3):
        for nu in range(mu + 1, 4):
            p = u[mu] @ torch.roll(u[nu], shifts=-1, dims=axis[mu])
            q = u[nu] @ torch.roll(u[mu], shifts=-1, dims=axis[nu])
            sums[nu == 3] += (p * q.conj()).real.sum().item()
    spatial, temporal = sums[0] / (9.0 * v), sums[1] / (9.0 * v)
    return torch.tensor([(spatial + temporal) / 2, spatial, temporal], dtype=gauge.dtype, device=gauge.device)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    v = s["X"] * s["Y"] * s["Z"] * s["T"]
    return {"bytes": 4 * 18 * 4 * v, "flops": 6 * 2 * 27 * 8 * v}
