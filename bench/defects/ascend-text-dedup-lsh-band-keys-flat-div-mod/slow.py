"""LSH band keys: fold each band of r MinHash values into one 31-bit bucket key."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _lsh_band_keys(sig, band_mult, keys, n_keys, n_bands, stride_s,
                   R: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for start in range(pid * BLOCK, n_keys, nprog * BLOCK):
        idx = start + tl.arange(0, BLOCK)
        m = idx < n_keys
        doc = idx // n_bands
        band = idx % n_bands
        src = sig + doc * stride_s + band * R
        acc = tl.zeros([BLOCK], dtype=tl.int32)
        for t in tl.static_range(R):
            acc += tl.load(src + t, mask=m, other=0) * tl.load(band_mult + t)
        tl.store(keys + idx, acc & 0x7FFFFFFF, mask=m)


def run(sig: torch.Tensor, band_mult: torch.Tensor) -> torch.Tensor:
    D, P = sig.shape
    R = band_mult.numel()
    n_bands = P // R
    keys = torch.empty((D, n_bands), device=sig.device, dtype=torch.int32)
    n_keys = D * n_bands
    BLOCK = 32 * triton.next_power_of_2(n_bands)
    grid = (min(_VECTOR_CORES, triton.cdiv(n_keys, BLOCK)),)
    _lsh_band_keys[grid](sig, band_mult, keys, n_keys, n_bands, sig.stride(0), R=R, BLOCK=BLOCK)
    return keys
