"""Simple aperture photometry and flux-weighted centroids from target pixel files (lightkurve).

For each of S targets a TESS target pixel file holds flux[s, t, p] (e-/s, background-subtracted)
for T cadences over the P = H * W pixels of its stamp, in lightkurve's cadence-major layout
(tpf.flux is [time, row, column]; the stamp is flattened here). With the pipeline aperture
aperture[s, p] (1 inside, 0 outside) and the CCD column / row of every stamp pixel
(pix_col[s, p] = tpf.column + c, pix_row[s, p] = tpf.row + r), the kernel returns per cadence
    sap_flux[s, t]     = sum_p aperture * flux                      (TargetPixelFile.to_lightcurve('aperture'))
    centroid_col[s, t] = sum_p aperture * flux * pix_col / sap_flux (estimate_centroids('moments'))
    centroid_row[s, t] = sum_p aperture * flux * pix_row / sap_flux
Returns (sap_flux, centroid_col, centroid_row), each fp32 [S, T].
"""
import torch

META = {
    "name": "tpf_aperture_photometry_centroids",
    "level": 2,
    "category": "photometry",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"S": 3, "T": 40, "H": 11, "W": 11},
        "ragged": {"S": 2, "T": 53, "H": 9, "W": 13},
        "large": {"S": 64, "T": 20000, "H": 11, "W": 11},
    },
    "baseline_notes": "40 programs (the 910B4's vector cores) loop over (target, block of 32 cadences) work "
                      "items; each loads a [32 cadences, 128 pixels] tile whose rows are the cadences' "
                      "contiguous stamps, weights it by the aperture and the pixel column / row, and reduces "
                      "along the pixel (last) axis; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """flux [S, T, P], aperture [S, P] (0/1), pix_col [S, P], pix_row [S, P] (CCD coordinates)."""
    s = META["sizes"][size]
    n, t, h, w = s["S"], s["T"], s["H"], s["W"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    rows = torch.arange(h, dtype=torch.float32)[:, None].expand(h, w).reshape(-1)
    cols = torch.arange(w, dtype=torch.float32)[None, :].expand(h, w).reshape(-1)
    # star near the stamp centre with a Gaussian PRF (separable), jittering in time (pointing), plus noise
    cx0 = (w - 1) / 2 + torch.rand(n, 1, generator=g) - 0.5
    cy0 = (h - 1) / 2 + torch.rand(n, 1, generator=g) - 0.5
    tt = torch.arange(t, dtype=torch.float32)[None, :]
    jx = cx0 + 0.05 * torch.sin(tt / 37.0) + 0.02 * torch.randn(n, t, generator=g)
    jy = cy0 + 0.05 * torch.cos(tt / 53.0) + 0.02 * torch.randn(n, t, generator=g)
    amp = 2e3 * 10 ** (2 * torch.rand(n, 1, generator=g))
    sigma = 0.9
    gx = torch.exp(-(torch.arange(w, dtype=torch.float32) - jx[..., None]) ** 2 / (2 * sigma ** 2))
    gy = torch.exp(-(torch.arange(h, dtype=torch.float32) - jy[..., None]) ** 2 / (2 * sigma ** 2))
    prf = (gy[..., :, None] * gx[..., None, :]).reshape(n, t, h * w)
    flux = prf.mul_((amp / (2 * torch.pi * sigma ** 2))[..., None])
    flux.add_(torch.randn(n, t, h * w, generator=g), alpha=8.0)
    model = torch.exp(-((cols - cx0) ** 2 + (rows - cy0) ** 2) / (2 * sigma ** 2))
    aperture = (model > 0.05).to(torch.float32)
    corner_col = torch.randint(50, 2000, (n, 1), generator=g).to(torch.float32)
    corner_row = torch.randint(1, 2000, (n, 1), generator=g).to(torch.float32)
    out = (flux, aperture, corner_col + cols, corner_row + rows)
    return tuple(x.to(dt).contiguous().to(device) for x in out)


def reference(flux: torch.Tensor, aperture: torch.Tensor, pix_col: torch.Tensor,
              pix_row: torch.Tensor) -> tuple:
    fa = flux.double() * aperture.double()[:, None, :]
    sap = fa.sum(-1)
    col = (fa * pix_col.double()[:, None, :]).sum(-1) / sap
    row = (fa * pix_row.double()[:, None, :]).sum(-1) / sap
    return sap.to(flux.dtype), col.to(flux.dtype), row.to(flux.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    p = s["H"] * s["W"]
    return {"bytes": 4 * s["S"] * s["T"] * (p + 3) + 12 * s["S"] * p, "flops": 5 * s["S"] * s["T"] * p}
