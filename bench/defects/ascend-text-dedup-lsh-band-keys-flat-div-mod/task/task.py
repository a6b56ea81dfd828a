"""LSH band keys of MinHash signatures (text-dedup / datatrove MinHash LSH banding step).

A document's MinHash signature of P = b * r values is cut into b bands of r consecutive values; two
documents become candidate duplicates when any band matches exactly. text-dedup keys each band by
bytes(hashvalues[start:end]); a GPU/NPU port folds the r values of a band into one 31-bit bucket key
with a multilinear hash so that bucketing can sort and group plain integers:
    key[d, j] = (sum_{t < r} sig[d, j * r + t] * band_mult[t] mod 2^32) & 0x7FFFFFFF
(int32 wrap-around arithmetic). Inputs: sig int32 [D, b * r] (31-bit MinHash values), band_mult
int32 [r] (odd multipliers, drawn once with the permutations). Output: int32 [D, b].
"""
import torch

META = {
    "name": "lsh_band_keys",
    "level": 1,
    "category": "hashing",
    "dtypes": ["int32"],
    "tolerance": {"int32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"D": 20, "bands": 14, "rows": 8},
        "ragged": {"D": 37, "bands": 9, "rows": 8},
        "large": {"D": 262144, "bands": 32, "rows": 8},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over blocks of 32 documents; each block "
                      "is one contiguous [32, next_pow2(b) * r] tile of signature rows, reshaped on chip "
                      "to [32, bands, r], multiplied by the r band multipliers and summed over the last "
                      "axis (int32 wrap-around), then stored as a [32, bands] tile; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """sig int32 [D, bands * rows] in [0, 2^31), band_mult int32 [rows] (odd)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    sig = torch.randint(0, 2**31, (s["D"], s["bands"] * s["rows"]), generator=g, dtype=torch.int64)
    # near-duplicate documents share bands: copy some bands from an earlier document
    d, p = sig.shape
    if d > 1:
        src = torch.randint(0, d, (d,), generator=g)
        share = torch.rand(d, s["bands"], generator=g) < 0.1
        share = share.repeat_interleave(s["rows"], dim=1)
        sig = torch.where(share, sig[src], sig)
    band_mult = torch.randint(-2**31, 2**31, (s["rows"],), generator=g, dtype=torch.int64) | 1
    return sig.to(torch.int32).to(device), band_mult.to(torch.int32).to(device)


def reference(sig: torch.Tensor, band_mult: torch.Tensor) -> torch.Tensor:
    d, p = sig.shape
    r = band_mult.numel()
    x = sig.long().view(d, p // r, r)
    return ((x * band_mult.long()[None, None, :]).sum(dim=2) & 0x7FFFFFFF).to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 4 * s["D"] * s["bands"] * (s["rows"] + 1), "flops": 2 * s["D"] * s["bands"] * s["rows"]}
