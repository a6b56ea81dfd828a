"""BayesShrink (skimage denoise_wavelet): per-subband energy, then the soft threshold of every coefficient."""
import torch
import triton
import triton.language as tl

BLOCK = 1024
MAX_SPLIT = 128  # chunks per subband: enough programs on the finest bands to fill the GPU


@triton.jit
def _subband_energy(coeffs, offsets, energy, T, SPLIT: tl.constexpr, BLOCK: tl.constexpr):
    part = tl.program_id(0)
    band = tl.program_id(1)
    chan = tl.program_id(2)
    lo = tl.load(offsets + band)
    hi = tl.load(offsets + band + 1)
    chunk = tl.cdiv(tl.cdiv(hi - lo, SPLIT), BLOCK) * BLOCK
    start = lo + part * chunk
    stop = tl.minimum(start + chunk, hi)
    row = coeffs + chan * T
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for i in range(start, stop, BLOCK):
        offs = i + tl.arange(0, BLOCK)
        d = tl.load(row + offs, mask=offs < stop, other=0.0)
        acc += d * d
    tl.store(energy + (chan * tl.num_programs(1) + band) * SPLIT + part, tl.sum(acc, axis=0))


@triton.jit
def _bayes_soft_threshold(coeffs, offsets, sigma, energy, out, T, eps,
                          SPLIT: tl.constexpr, BLOCK: tl.constexpr):
    part = tl.program_id(0)
    band = tl.program_id(1)
    chan = tl.program_id(2)
    lo = tl.load(offsets + band)
    hi = tl.load(offsets + band + 1)
    partials = tl.load(energy + (chan * tl.num_programs(1) + band) * SPLIT + tl.arange(0, SPLIT))
    dvar = tl.sum(partials, axis=0) / (hi - lo).to(tl.float32)
    s = tl.load(sigma + chan)
    var = s * s
    thr = var / tl.sqrt(tl.maximum(dvar - var, eps))
    chunk = tl.cdiv(tl.cdiv(hi - lo, SPLIT), BLOCK) * BLOCK
    start = lo + part * chunk
    stop = tl.minimum(start + chunk, hi)
    src = coeffs + chan * T
    dst = out + chan * T
    for i in range(start, stop, BLOCK):
        offs = i + tl.arange(0, BLOCK)
        ok = offs < stop
        d = tl.load(src + offs, mask=ok, other=0.0)
        mag = tl.maximum(tl.abs(d) - thr, 0.0)
        tl.store(dst + offs, tl.where(d < 0, -mag, mag), mask=ok)


def run(coeffs: torch.Tensor, offsets: torch.Tensor, sigma: torch.Tensor) -> torch.Tensor:
    C, T = coeffs.shape
    n_bands = offsets.numel() - 1
    split = min(MAX_SPLIT, triton.next_power_of_2(triton.cdiv(T, 32 * BLOCK)))
    energy = torch.empty((C, n_bands, split), device=coeffs.device, dtype=torch.float32)
    _subband_energy[(split, n_bands, C)](coeffs, offsets, energy, T, SPLIT=split, BLOCK=BLOCK, num_warps=4)
    out = torch.empty_like(coeffs)
    eps = torch.finfo(coeffs.dtype).eps
    _bayes_soft_threshold[(split, n_bands, C)](coeffs, offsets, sigma, energy, out, T, eps,
                                               SPLIT=split, BLOCK=BLOCK, num_warps=4)
    return out
