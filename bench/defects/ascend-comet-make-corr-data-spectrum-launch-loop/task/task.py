"""Comet MakeCorrData: windowed intensity normalisation of binned MS/MS spectra before the XCorr.

For every query spectrum Comet bins the centroided peaks (sqrt intensities, the highest value kept
per bin) into iArraySize bins of fragment_bin_tol, then (CometPreprocess::MakeCorrData):
    raw   <- raw * 100 / max(raw)                        (highest peak = 100)
    wsize = highest_ion_bin // 10 + 1                    (10 windows up to the highest ion)
    per window w: wmax = max(raw[w*wsize : (w+1)*wsize])
        corr[i] = raw[i] * 50 / wmax   where raw[i] > 0.05 * max(raw)   (else 0)
    bins past the 10th window stay 0.
The batch is padded to a common number of bins B (zeros past each spectrum's array). Returns
corr [S, B] fp32, which the fast-XCorr step consumes.
"""
import torch

NUM_WINDOWS = 10

META = {
    "name": "comet_make_corr_data",
    "level": 2,
    "category": "normalization",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-5}},
    "sizes": {
        "small": {"S": 6, "B": 256, "peaks": 40},
        "ragged": {"S": 9, "B": 1001, "peaks": 90},
        "large": {"S": 15000, "B": 4096, "peaks": 300},
    },
    "baseline_notes": "One launch: 40 programs (the 910B4's vector cores) loop over the spectra; per spectrum "
                      "one row load for the maximum, then 10 window tiles (WBLOCK = next_power_of_2(B // 10 + 1)) "
                      "each loaded, max-reduced, scaled and stored, then a zero store past the last window; no "
                      "autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """raw [S, B] binned sqrt intensities (0 where no peak), highest_bin [S] int32 (last bin holding a peak)."""
    s = META["sizes"][size]
    S, B, P = s["S"], s["B"], s["peaks"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    # each spectrum covers up to its own precursor m/z: 40-100% of the padded array
    top = (B * (0.4 + 0.6 * torch.rand(S, generator=g))).long().clamp(min=8, max=B)
    where = (torch.rand(S, P, generator=g) * top[:, None]).long().clamp(max=B - 1)
    inten = torch.sqrt(torch.exp(torch.randn(S, P, generator=g) * 1.5 + 8.0))
    raw = torch.zeros(S, B).scatter_reduce_(1, where, inten, reduce="amax")
    nz = raw > 0
    idx = torch.arange(B).expand(S, B)
    highest = torch.where(nz, idx, torch.zeros_like(idx)).amax(dim=1).to(torch.int32)
    return raw.to(dt).to(device), highest.to(device)


def reference(raw: torch.Tensor, highest_bin: torch.Tensor) -> torch.Tensor:
    S, B = raw.shape
    x = raw.double()
    rmax = x.amax(dim=1, keepdim=True)
    x = x * torch.where(rmax > 0, 100.0 / rmax.clamp(min=1e-30), torch.ones_like(rmax))
    thresh = 0.05 * x.amax(dim=1, keepdim=True)
    wsize = highest_bin.long() // NUM_WINDOWS + 1
    # window of every bin; bins past the 10th window go to a dummy window NUM_WINDOWS
    win = (torch.arange(B, device=raw.device)[None, :] // wsize[:, None]).clamp(max=NUM_WINDOWS)
    wmax = torch.zeros(S, NUM_WINDOWS + 1, dtype=x.dtype, device=x.device)
    wmax = wmax.scatter_reduce(1, win, x, reduce="amax")
    scale = torch.where(wmax > 0, 50.0 / wmax.clamp(min=1e-30), torch.zeros_like(wmax))
    keep = (win < NUM_WINDOWS) & (x > thresh)
    out = torch.where(keep, x * scale.gather(1, win), torch.zeros_like(x))
    return out.to(raw.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 12 * s["S"] * s["B"] + 4 * s["S"], "flops": 4 * s["S"] * s["B"]}
