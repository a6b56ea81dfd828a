"""ePlace / DREAMPlace electric potential and field from the bin density map (ops/electric_potential).

The Poisson equation is solved spectrally with the 2-D DCT written as products with cached cosine
and frequency-weighted sine bases (w_u = pi * u, die normalised to 1 per axis):
    a     = 4 / (Mx * My) * Cx @ rho @ Cy^T,   a~[u, v] = a[u, v] / (w_u^2 + w_v^2),  a~[0, 0] = 0
    psi   = Cx^T @ a~ @ Cy
    xi_x  = (diag(w_u) Sx)^T @ a~ @ Cy,   xi_y = Cx^T @ a~ @ (diag(w_v) Sy)
with C[u, i] = cos(pi * u * (i + 0.5) / M) and S[u, i] = sin(pi * u * (i + 0.5) / M).
Outputs: potential, field_x, field_y, all [Mx, My] fp32.
"""
import math

import torch

META = {
    "name": "eplace_electric_potential_dct",
    "level": 3,
    "category": "matmul",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-3}},
    "sizes": {
        "small": {"Mx": 32, "My": 32},
        "ragged": {"Mx": 48, "My": 40},
        "large": {"Mx": 1024, "My": 1024},
    },
    "baseline_notes": "Seven launches of one grouped-order 64x64x32 tl.dot GEMM (4 warps, 3 stages) over the "
                      "transposed bases through strides; the spectral Poisson scaling is fused into the epilogue "
                      "of the second product; fp32 operands with input_precision='tf32x3'.",
    "deterministic": True,
}


def _bases(m: int) -> tuple:
    u = torch.arange(m, dtype=torch.float64)[:, None]
    i = torch.arange(m, dtype=torch.float64)[None, :]
    phase = math.pi * u * (i + 0.5) / m
    return torch.cos(phase), torch.sin(phase) * (math.pi * u)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """density [Mx, My] (bin utilisation incl. fillers), cos_x [Mx, Mx], sin_x_w [Mx, Mx], cos_y [My, My],
    sin_y_w [My, My] (the bases DREAMPlace caches once per placement)."""
    s = META["sizes"][size]
    mx, my = s["Mx"], s["My"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    rho = 0.55 + 0.45 * torch.rand(mx, my, generator=g)
    for _ in range(6):  # fixed macros fill their bins, keep-out regions stay almost empty
        bx, by = int(torch.randint(0, mx - mx // 8, (1,), generator=g)), int(torch.randint(0, my - my // 8, (1,), generator=g))
        rho[bx:bx + mx // 8, by:by + my // 6] = 1.0 if float(torch.rand(1, generator=g)) < 0.7 else 0.05
    cx, sx = _bases(mx)
    cy, sy = _bases(my)
    return tuple(t.to(dt).to(device) for t in (rho, cx, sx, cy, sy))


def reference(density, cos_x, sin_x_w, cos_y, sin_y_w):
    mx, my = density.shape
    rho, cx, sx, cy, sy = (t.double() for t in (density, cos_x, sin_x_w, cos_y, sin_y_w))
    wu = math.pi * torch.arange(mx, dtype=torch.float64, device=density.device)
    wv = math.pi * torch.arange(my, dtype=torch.float64, device=density.device)
    den = wu[:, None] ** 2 + wv[None, :] ** 2
    coef = (cx @ rho @ cy.t()) * (4.0 / (mx * my))
    coef = torch.where(den > 0, coef / den.clamp_min(1e-30), torch.zeros_like(coef))
    p1 = coef @ cy
    outs = (cx.t() @ p1, sx.t() @ p1, cx.t() @ (coef @ sy))
    return tuple(o.to(density.dtype) for o in outs)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    mx, my = s["Mx"], s["My"]
    flops = 2 * mx * my * (4 * mx + 3 * my)
    return {"bytes": 4 * (2 * mx * mx + 2 * my * my + 16 * mx * my), "flops": flops}
