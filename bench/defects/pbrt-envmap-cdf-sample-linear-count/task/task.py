"""Environment-map importance sampling (pbrt-v4 ImageInfiniteLight::SampleLi -> PiecewiseConstant2D::Sample).

The light's sampling distribution is a piecewise-constant 2-D density over the (equal-area) image square:
one conditional PiecewiseConstant1D per image row v over the nu columns, and a marginal over the nv rows
whose function is the rows' integrals. For each sample pair (u0, u1):
    o1 = FindInterval(marg_cdf, u1)   (largest o with cdf[o] <= u1, clamped to [0, nv - 1])
    v  = (o1 + (u1 - cdf[o1]) / (cdf[o1 + 1] - cdf[o1])) / nv,   pdf_v = row_int[o1] / marg_int
    o0 = FindInterval(cond_cdf[o1], u0), u and pdf_u likewise from row o1's cdf and function
Returns (uv [N, 2] fp32, pdf = pdf_u * pdf_v [N] fp32). The CDFs are built once per scene (as in
pbrt's constructor, here in make_inputs); the kernel is the per-sample lookup.
"""
import math

import torch

META = {
    "name": "envmap_piecewise2d_sample",
    "level": 2,
    "category": "sampling",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 100, "NU": 24, "NV": 12},
        "ragged": {"N": 77, "NU": 37, "NV": 19},
        "large": {"N": 1920 * 1080, "NU": 2048, "NV": 2048},
    },
    "baseline_notes": "One program per 128 samples; each of the two FindInterval lookups is a vectorised "
                      "binary search (ceil(log2 n) masked gather steps: the marginal CDF, then the chosen "
                      "row of the conditional CDF), then the lerp and the pdf from the function values. "
                      "4 warps, no autotune.",
    "deterministic": True,
}


def _cdf(func: torch.Tensor) -> tuple:
    """pbrt PiecewiseConstant1D over [0, 1] along the last axis: (cdf [.., n + 1], funcInt [..])."""
    n = func.shape[-1]
    run = torch.cumsum(func.double(), dim=-1) / n
    integral = run[..., -1]
    cdf = torch.cat([torch.zeros_like(run[..., :1]), run / integral[..., None]], dim=-1)
    cdf[..., -1] = 1.0
    return cdf, integral


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Samples u [N, 2] in [0, 1), the conditional CDFs [NV, NU + 1], row functions [NV, NU], row
    integrals [NV] (the marginal's function), the marginal CDF [NV + 1] and its integral (float)."""
    s = META["sizes"][size]
    n, nu, nv = s["N"], s["NU"], s["NV"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    # A procedural HDR sky: horizon gradient, a small bright sun and some cloud noise (pbrt samples the
    # image's channel average, so the density is strictly positive and very peaked near the sun).
    y = (torch.arange(nv, dtype=torch.float64) + 0.5) / nv
    x = (torch.arange(nu, dtype=torch.float64) + 0.5) / nu
    sky = 0.3 + 1.2 * torch.exp(-4.0 * (y[:, None] - 0.45).abs()) * (1.0 + 0.2 * torch.cos(2 * math.pi * x[None, :]))
    sun = 4000.0 * torch.exp(-((x[None, :] - 0.31) ** 2 + (y[:, None] - 0.27) ** 2) / (2 * 0.004 ** 2))
    clouds = 0.5 * torch.rand(nv, nu, generator=g, dtype=torch.float64)
    func = (sky + sun + clouds).to(dt)
    cond_cdf, row_int = _cdf(func)
    marg_cdf, marg_int = _cdf(row_int.to(dt)[None, :])
    u = torch.rand(n, 2, generator=g).to(dt)
    return (u.to(device), cond_cdf.to(dt).to(device), func.to(device), row_int.to(dt).to(device),
            marg_cdf[0].to(dt).to(device), float(marg_int[0]))


def _sample_1d(cdf: torch.Tensor, func: torch.Tensor, integral: torch.Tensor, u: torch.Tensor) -> tuple:
    """PiecewiseConstant1D::Sample for a batch: cdf [B, n + 1] (or [n + 1]), func [B, n], u [B]."""
    n = cdf.shape[-1] - 1
    o = torch.searchsorted(cdf, u[:, None] if cdf.dim() == 2 else u, right=True)
    o = (o.reshape(-1) - 1).clamp(0, n - 1)
    pick = (lambda t, i: t.gather(-1, i[:, None])[:, 0]) if cdf.dim() == 2 else (lambda t, i: t[i])
    c0, c1 = pick(cdf, o).double(), pick(cdf, o + 1).double()
    du = u.double() - c0
    du = torch.where(c1 - c0 > 0, du / (c1 - c0), du)
    pdf = pick(func, o).double() / integral
    return (o.double() + du) / n, pdf, o


def reference(u, cond_cdf, func, row_int, marg_cdf, marg_int):
    uv = torch.empty(u.shape[0], 2, dtype=torch.float64, device=u.device)
    pdf = torch.empty(u.shape[0], dtype=torch.float64, device=u.device)
    for start in range(0, u.shape[0], 65536):
        part = slice(start, start + 65536)
        v, pdf_v, row = _sample_1d(marg_cdf, row_int, torch.tensor(marg_int, dtype=torch.float64),
                                    u[part, 1].contiguous())
        uu, pdf_u, _ = _sample_1d(cond_cdf[row], func[row], row_int[row].double(), u[part, 0].contiguous())
        uv[part, 0], uv[part, 1], pdf[part] = uu, v, pdf_u * pdf_v
    return uv.to(u.dtype), pdf.to(u.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["N"]
    steps = math.ceil(math.log2(s["NU"] + 1)) + math.ceil(math.log2(s["NV"] + 1))
    return {"bytes": 20 * n + 4 * n * (steps + 6), "flops": 12 * n}
