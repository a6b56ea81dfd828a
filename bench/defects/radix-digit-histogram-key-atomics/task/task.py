"""Upfront digit histogram of an LSD radix sort (CUB onesweep's first kernel): for 32-bit signed
keys, the count of every 8-bit digit value in each of the 4 digit passes (the top digit with the
sign bit flipped, so negative keys sort first). Output [4, 256] int32."""
import torch

META = {
    "name": "radix_digit_histogram",
    "level": 2,
    "category": "sort",
    "dtypes": ["int32"],
    "tolerance": {"int32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"N": 5000},
        "ragged": {"N": 70001},
        "large": {"N": 16777216},
    },
    "baseline_notes": "2-D grid (key chunks of 8,192, digit pass); each program counts its chunk's digits "
                      "on chip with tl.histogram over 1,024-key blocks and adds the 256 bins to the global "
                      "histogram with one vector atomic add.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """keys [N] int32 over the whole int32 range (hashes / packed sort keys)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    keys = torch.randint(-2**31, 2**31 - 1, (s["N"],), generator=g, dtype=torch.int64)
    return (keys.to(torch.int32).to(device),)


def reference(keys: torch.Tensor) -> torch.Tensor:
    k = keys.long() & 0xFFFFFFFF
    k = k ^ 0x80000000
    rows = [torch.bincount((k >> (8 * p)) & 255, minlength=256) for p in range(4)]
    return torch.stack(rows).to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 4 * 4 * s["N"] + 4 * 1024, "flops": 4 * s["N"]}
