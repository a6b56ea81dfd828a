"""Wilson hopping term (the Dslash of QUDA's dslash_wilson / Grid's WilsonKernels::DhopSite) on a full 4-D lattice.

For every site x of an LX x LY x LZ x LT lattice (x fastest, site s = ((t*LZ + z)*LY + y)*LX + x) and the
four directions mu = x, y, z, t:

    D psi(x) = sum_mu [ (1 - gamma_mu) U_mu(x) psi(x + mu) + (1 + gamma_mu) U_mu(x - mu)^dagger psi(x - mu) ]

with periodic neighbours. The fermion's antiperiodic time boundary is folded into the gauge field, as QUDA
does: the t-links of the last time slice carry a factor -1. gamma_mu are the DeGrand-Rossi matrices
(QUDA's and Chroma's default basis). Fields are single precision, complex numbers interleaved (re, im):
psi [V, 4 spin, 3 colour, 2] and the links U [V, 4 mu, 3, 3, 2] (row-major SU(3) matrices). Returns
D psi [V, 4, 3, 2] fp32.
"""
import torch

META = {
    "name": "wilson_dslash",
    "level": 3,
    "category": "stencil",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"LX": 4, "LY": 4, "LZ": 4, "LT": 8},
        "ragged": {"LX": 6, "LY": 4, "LZ": 5, "LT": 3},
        "large": {"LX": 32, "LY": 32, "LZ": 32, "LT": 64},
    },
    "baseline_notes": "One launch over blocks of 128 sites (4 warps, one site per thread): each program gathers "
                      "the 8 neighbour spinors, spin-projects them to half spinors, multiplies by U or U^dagger "
                      "and reconstructs, keeping the 24 reals of the result in registers across all 8 hops; one "
                      "store per site. No autotune.",
    "deterministic": True,
}

# DeGrand-Rossi gamma_1..gamma_4 (x, y, z, t)
_GAMMA = (
    ((0, 0, 0, 1j), (0, 0, 1j, 0), (0, -1j, 0, 0), (-1j, 0, 0, 0)),
    ((0, 0, 0, -1), (0, 0, 1, 0), (0, 1, 0, 0), (-1, 0, 0, 0)),
    ((0, 0, 1j, 0), (0, 0, 0, -1j), (-1j, 0, 0, 0), (0, 1j, 0, 0)),
    ((0, 0, 1, 0), (0, 0, 0, 1), (1, 0, 0, 0), (0, 1, 0, 0)),
)


def _random_su3(n: int, g: torch.Generator) -> torch.Tensor:
    """n random SU(3) matrices [n, 3, 3] complex64 (two Gram-Schmidt rows, the third their conjugate cross product)."""
    a = torch.complex(torch.randn(n, 3, generator=g), torch.randn(n, 3, generator=g))
    b = torch.complex(torch.randn(n, 3, generator=g), torch.randn(n, 3, generator=g))
    r0 = a / a.abs().pow(2).sum(-1, keepdim=True).sqrt()
    b = b - (r0.conj() * b).sum(-1, keepdim=True) * r0
    r1 = b / b.abs().pow(2).sum(-1, keepdim=True).sqrt()
    r2 = torch.linalg.cross(r0, r1).conj()
    return torch.stack((r0, r1, r2), dim=1)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """psi [V, 4, 3, 2], gauge [V, 4, 3, 3, 2] (fp32, interleaved complex) and the extents LX, LY, LZ, LT."""
    s = META["sizes"][size]
    lx, ly, lz, lt = s["LX"], s["LY"], s["LZ"], s["LT"]
    v = lx * ly * lz * lt
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    links = _random_su3(4 * v, g).reshape(lt, lz * ly * lx, 4, 3, 3)
    links[lt - 1, :, 3] *= -1  # antiperiodic fermion boundary in time, folded into the last t-links
    gauge = torch.view_as_real(links.reshape(v, 4, 3, 3)).contiguous()
    psi = torch.randn(v, 4, 3, 2, generator=g)
    return psi.to(device=device, dtype=dt), gauge.to(device=device, dtype=dt), lx, ly, lz, lt


def reference(psi: torch.Tensor, gauge: torch.Tensor, lx: int, ly: int, lz: int, lt: int) -> torch.Tensor:
    p = torch.view_as_complex(psi.double().reshape(lt, lz, ly, lx, 4, 3, 2).contiguous())
    u = torch.view_as_complex(gauge.double().reshape(lt, lz, ly, lx, 4, 3, 3, 2).contiguous())
    out = torch.zeros_like(p)
    for mu in range(4):
        axis = 3 - mu  # x is the last lattice axis
        gam = torch.tensor(_GAMMA[mu], dtype=p.dtype, device=p.device)
        fwd = torch.einsum("...ij,...sj->...si", u[..., mu, :, :], torch.roll(p, -1, axis))
        bwd = torch.roll(torch.einsum("...ji,...sj->...si", u[..., mu, :, :].conj(), p), 1, axis)
        out += fwd - torch.einsum("st,...ti->...si", gam, fwd)
        out += bwd + torch.einsum("st,...ti->...si", gam, bwd)
    return torch.view_as_real(out).reshape(psi.shape).to(psi.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    v = s["LX"] * s["LY"] * s["LZ"] * s["LT"]
    # QUDA's count: 1320 flops per site; minimal traffic: links, spinor in, spinor out
    return {"bytes": v * 4 * (72 + 24 + 24), "flops": 1320 * v}
