"""Density contrast of a painted particle mesh (nbodykit CatalogMesh.to_real_field(normalize=True) / FastPM, pmwd).

After mass assignment (CIC paint) of the particles to an N^3 mesh, the field is normalised by its mean,
nbodykit's `real[:] /= real.cmean()`, and the over-density delta = rho / <rho> - 1 is what the Fourier-space
steps (power spectrum, Poisson solve) take:
    mean = sum(rho) / N^3,   delta = rho / mean - 1        (computed as rho * (N^3 / sum) - 1)
Input rho [N, N, N] fp32 (a log-normal-like clustered density, mean about 1); returns delta [N, N, N] fp32.
"""
import torch

META = {
    "name": "mesh_density_contrast",
    "level": 1,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 16},
        "ragged": {"N": 13},
        "large": {"N": 512},
    },
    "baseline_notes": "Two launches. 40 programs (the A2's vector cores) each sum a strided share of 4096-value "
                      "blocks of the flattened mesh into a vector accumulator and store one fp32 partial; then 40 "
                      "programs each add the 40 partials to the total and stream rho * (N^3 / total) - 1 over "
                      "their share of blocks. fp32 accumulation; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """rho [N, N, N]: exp of a smoothed Gaussian field (clustered, positive, mean ~ 1)."""
    n = META["sizes"][size]["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    field = torch.randn(n, n, n, generator=g)
    smooth = (field + field.roll(1, 0) + field.roll(1, 1) + field.roll(1, 2)) * 0.5
    rho = torch.exp(0.9 * smooth - 0.405)
    return (rho.to(dt).to(device),)


def reference(rho: torch.Tensor) -> torch.Tensor:
    r = rho.double()
    return (r / r.mean() - 1.0).to(rho.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    return {"bytes": 12 * n ** 3, "flops": 3 * n ** 3}
