"""Merging of symmetry-equivalent intensities (cctbx.xfel.merge / cctbx miller merge_equivalents,
inverse-variance weighting), after the observations have been mapped to the asymmetric unit and sorted
by their unique-reflection index, as cctbx and dials.merge do before merging.

For each unique reflection h with observations I_i +- sigma_i (w_i = 1 / sigma_i^2):

    <I>_h       = sum_i w_i I_i / sum_i w_i
    sigma(<I>)  = 1 / sqrt(sum_i w_i)
    n_h         = number of observations

Returns (<I> fp32 [n_unique], sigma(<I>) fp32 [n_unique], n int32 [n_unique]); a unique reflection with
no observation gets 0, 0, 0.
"""
import torch

META = {
    "name": "merge_equivalents",
    "level": 2,
    "category": "crystallography",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-2, "rtol": 1e-3}},
    "sizes": {
        "small": {"n_obs": 3000, "n_unique": 61},
        "ragged": {"n_obs": 5003, "n_unique": 97},
        "large": {"n_obs": 33554432, "n_unique": 16384},
    },
    "baseline_notes": "Grid over blocks of 1024 sorted observations; each program forms w and w*I, runs a "
                      "segmented inclusive scan (tl.associative_scan keyed on the unique index) over its block "
                      "and adds sum w, sum w*I and the count into the per-reflection accumulators with one "
                      "atomic per segment end (about 1-2 per program); a second kernel forms <I>, sigma and n. "
                      "4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """intensity fp32 [n_obs], sigma fp32 [n_obs], unique index int32 [n_obs] (sorted), n_unique (int)."""
    s = META["sizes"][size]
    n_obs, n_unique = s["n_obs"], s["n_unique"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    # Wilson-distributed true intensities; each still observes a partial, scaled, noisy copy.
    i_true = -2000.0 * torch.log(torch.rand(n_unique, generator=g))
    idx = torch.sort(torch.randint(0, n_unique, (n_obs,), generator=g)).values
    partial = 0.2 + 0.8 * torch.rand(n_obs, generator=g)
    signal = i_true[idx] * partial
    sigma = torch.sqrt(signal + 40.0) * (1.0 + 0.3 * torch.rand(n_obs, generator=g))
    intensity = signal / partial + sigma / partial * torch.randn(n_obs, generator=g)
    sigma = sigma / partial
    return (intensity.to(device=device, dtype=dt), sigma.to(device=device, dtype=dt),
            idx.to(device=device, dtype=torch.int32), n_unique)


def reference(intensity, sigma, index, n_unique) -> tuple:
    w = 1.0 / sigma.double() ** 2
    idx = index.long()
    sw = torch.zeros(n_unique, dtype=torch.float64, device=intensity.device).index_add_(0, idx, w)
    swi = torch.zeros_like(sw).index_add_(0, idx, w * intensity.double())
    n = torch.bincount(idx, minlength=n_unique)
    has = sw > 0
    mean = torch.where(has, swi / sw.clamp(min=1e-300), torch.zeros_like(sw))
    sig = torch.where(has, 1.0 / torch.sqrt(sw.clamp(min=1e-300)), torch.zeros_like(sw))
    return mean.to(intensity.dtype), sig.to(intensity.dtype), n.to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 12 * s["n_obs"] + 12 * s["n_unique"], "flops": 4 * s["n_obs"]}
