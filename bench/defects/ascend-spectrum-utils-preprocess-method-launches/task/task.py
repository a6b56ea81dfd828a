"""MS/MS spectrum preprocessing chain of spectrum_utils (MsmsSpectrum method chain), on padded peak lists.

The usual chain before library search or clustering,
    spectrum.set_mz_range(min_mz=101, max_mz=1500)
            .remove_precursor_peak(0.05, "Da")
            .filter_intensity(min_intensity=0.01)
            .scale_intensity("root", max_intensity=1)
applied to S spectra stored as padded peak lists (mz [S, P], intensity [S, P]; padding has mz = 0,
intensity = 0). Removed peaks are kept in place with intensity 0 (compaction follows outside):
  1. keep peaks with MIN_MZ <= mz <= MAX_MZ;
  2. drop peaks within TOL Da of the precursor m/z and of its charge-reduced forms,
     ((pmz - p) * charge) / z + p for z = 1..charge (p = proton mass);
  3. drop peaks below MIN_REL times the most intense remaining peak;
  4. square-root scale and divide by the largest square-rooted intensity (max becomes 1).
Returns the processed intensity [S, P] fp32.
"""
import torch

MIN_MZ, MAX_MZ, TOL, MIN_REL, PROTON = 101.0, 1500.0, 0.05, 0.01, 1.007276
MAX_CHARGE = 4

META = {
    "name": "msms_preprocess",
    "level": 2,
    "category": "normalization",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"S": 6, "P": 128},
        "ragged": {"S": 11, "P": 200},
        "large": {"S": 131072, "P": 512},
    },
    "baseline_notes": "One launch: 40 programs loop over blocks of 4 spectra x the whole padded peak list; "
                      "m/z range and precursor masks, row max, relative-intensity filter and root scaling "
                      "in registers, one read of mz and intensity and one store of the result.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """mz [S, P] (sorted per spectrum, zero padded), intensity [S, P], precursor_mz [S], charge [S] int32."""
    s = META["sizes"][size]
    S, P = s["S"], s["P"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    charge = torch.randint(2, MAX_CHARGE + 1, (S,), generator=g, dtype=torch.int32)
    pmz = 400.0 + 800.0 * torch.rand(S, generator=g)
    npk = torch.randint(P // 4, P + 1, (S,), generator=g)
    mz = torch.sort(60.0 + 1700.0 * torch.rand(S, P, generator=g), dim=1).values
    inten = torch.rand(S, P, generator=g).pow(3) * 1.0e5
    # plant precursor peaks (and a charge-reduced one) so that step 2 has something to remove
    mz[:, P // 3] = pmz + 0.02 * (torch.rand(S, generator=g) - 0.5)
    mz[:, P // 2] = (pmz - PROTON) * charge / 1 + PROTON - 0.03
    inten[:, P // 3] = 2.0e5
    mz, _ = torch.sort(mz, dim=1)
    pad = torch.arange(P)[None, :] >= npk[:, None]
    mz = mz.masked_fill(pad, 0.0)
    inten = inten.masked_fill(pad, 0.0)
    return (mz.to(dt).to(device), inten.to(dt).to(device), pmz.to(dt).to(device), charge.to(device))


def reference(mz: torch.Tensor, inten: torch.Tensor, precursor_mz: torch.Tensor, charge: torch.Tensor) -> torch.Tensor:
    x = torch.where((mz >= MIN_MZ) & (mz <= MAX_MZ), inten, torch.zeros_like(inten))
    neutral = (precursor_mz - PROTON) * charge.to(mz.dtype)  # fp32, as the kernel forms it
    for z in range(1, MAX_CHARGE + 1):
        rmz = neutral / z + PROTON
        hit = ((mz - rmz[:, None]).abs() <= TOL) & (charge[:, None] >= z)
        x = torch.where(hit, torch.zeros_like(x), x)
    base = x.amax(dim=1, keepdim=True)
    x = torch.where(x >= MIN_REL * base, x, torch.zeros_like(x))
    r = x.double().sqrt()
    top = r.amax(dim=1, keepdim=True)
    return torch.where(top > 0, r / top.clamp_min(1e-300), torch.zeros_like(r)).to(inten.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["S"] * s["P"]
    return {"bytes": 12 * n + 8 * s["S"], "flops": 20 * n}
