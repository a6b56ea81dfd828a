"""Gauge transformation of the link field (Grid's SU<Nc>::GaugeTransform, also the step QUDA's gauge fixing applies).

For every site x of an LX x LY x LZ x LT lattice (x fastest, site s = ((t*LZ + z)*LY + y)*LX + x) and each
direction mu = x, y, z, t, with a site-local SU(3) field g:

    U'_mu(x) = g(x) U_mu(x) g(x + mu)^dagger        (periodic neighbours)

Single precision, complex interleaved (re, im): links U [V, 4 mu, 3, 3, 2], g [V, 3, 3, 2] (row-major).
Returns U' [V, 4, 3, 3, 2] fp32.
"""
import torch

META = {
    "name": "gauge_transform",
    "level": 2,
    "category": "stencil",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"LX": 2, "LY": 3, "LZ": 2, "LT": 3},
        "ragged": {"LX": 3, "LY": 3, "LZ": 2, "LT": 3},
        "large": {"LX": 32, "LY": 32, "LZ": 32, "LT": 64},
    },
    "baseline_notes": "Programs take 32 consecutive links (8 sites x 4 directions); the 3x3 complex matrices are "
                      "loaded as [32, 4, 4] tiles (colour padded to 4, masked), g(x + mu)^dagger by a transposed "
                      "load, and both products are broadcast-multiply-sums over the inner colour axis; 4 warps, "
                      "no autotune.",
    "deterministic": True,
}


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
    """links [V, 4, 3, 3, 2], g [V, 3, 3, 2] (fp32, interleaved complex) and the extents LX, LY, LZ, LT."""
    s = META["sizes"][size]
    lx, ly, lz, lt = s["LX"], s["LY"], s["LZ"], s["LT"]
    v = lx * ly * lz * lt
    gen = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    links = torch.view_as_real(_random_su3(4 * v, gen).reshape(v, 4, 3, 3)).contiguous()
    g = torch.view_as_real(_random_su3(v, gen)).contiguous()
    return links.to(device=device, dtype=dt), g.to(device=device, dtype=dt), lx, ly, lz, lt


def reference(links: torch.Tensor, g: torch.Tensor, lx: int, ly: int, lz: int, lt: int) -> torch.Tensor:
    u = torch.view_as_complex(links.double().reshape(lt, lz, ly, lx, 4, 3, 3, 2).contiguous())
    gc = torch.view_as_complex(g.double().reshape(lt, lz, ly, lx, 3, 3, 2).contiguous())
    out = torch.empty_like(u)
    for mu in range(4):
        g_fwd = torch.roll(gc, -1, 3 - mu)  # g(x + mu); x is the last lattice axis
        out[..., mu, :, :] = gc @ u[..., mu, :, :] @ g_fwd.conj().transpose(-1, -2)
    return torch.view_as_real(out).reshape(links.shape).to(links.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    v = s["LX"] * s["LY"] * s["LZ"] * s["LT"]
    # per link two 3x3 complex products (2 x 27 complex mul-adds = 432 flops); links in and out, g once
    return {"bytes": v * 4 * (72 + 72 + 18), "flops": 432 * 4 * v}
