"""LSH band keys: fold each band of r MinHash values into one 31-bit bucket key."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _lsh_band_keys(sig, band_mult, keys, n_docs, n_bands, stride_s,
                   R: tl.constexpr, BD: tl.constexpr, BB: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    bands = tl.arange(0, BB)
    lanes = tl.arange(0, BB * R)
    w = tl.load(band_mult + tl.arange(0, R))
    for start in range(pid * BD, n_docs, nprog * BD):
        rows = start + tl.arange(0, BD)
        m = rows < n_docs
        x = tl.load(sig + rows[:, None] * stride_s + lanes[None, :],
                    mask=m[:, None] & (lanes < n_bands * R)[None, :], other=0)
        acc = tl.sum(tl.reshape(x, [BD, BB, R]) * w[None, None, :], axis=2)
        tl.store(keys + rows[:, None] * n_bands + bands[None, :], acc & 0x7FFFFFFF,
                 mask=m[:, None] & (bands < n_bands)[None, :])


def run(sig: torch.Tensor, band_mult: torch.Tensor) -> torch.Tensor:
    D, P = sig.shape
    R = band_mult.numel()
    n_bands = P // R
    keys = torch.empty((D, n_bands), device=sig.device, dtype=torch.int32)
    BD = 32
    grid = (min(_VECTOR_CORES, triton.cdiv(D, BD)),)
    _lsh_band_keys[grid](sig, band_mult, keys, D, n_bands, sig.stride(0),
                         R=R, BD=BD, BB=triton.next_power_of_2(n_bands))
    return keys
