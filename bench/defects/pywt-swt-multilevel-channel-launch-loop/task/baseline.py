"""pywt.swt(x, 'sym4', level=J): a trous filtering of every channel, periodic extension, one launch per level."""
import torch
import triton
import triton.language as tl

BLOCK = 1024


@triton.jit
def _swt_level(src, dec_lo, dec_hi, ca, cd, n, step, F: tl.constexpr, BLOCK: tl.constexpr):
    t = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    row = tl.program_id(1) * n
    ok = t < n
    acc_a = tl.zeros([BLOCK], dtype=tl.float32)
    acc_d = tl.zeros([BLOCK], dtype=tl.float32)
    for k in tl.static_range(F):
        h0 = tl.load(dec_lo + k)
        h1 = tl.load(dec_hi + k)
        idx = t + step * (F // 2 - k)
        idx = tl.where(idx >= n, idx - n, idx)
        idx = tl.where(idx < 0, idx + n, idx)
        v = tl.load(src + row + idx, mask=ok, other=0.0)
        acc_a += h0 * v
        acc_d += h1 * v
    tl.store(ca + row + t, acc_a, mask=ok)
    tl.store(cd + row + t, acc_d, mask=ok)


def run(x: torch.Tensor, dec_lo: torch.Tensor, dec_hi: torch.Tensor, levels: int) -> tuple:
    B, n = x.shape
    F = dec_lo.numel()
    ca = torch.empty((levels, B, n), device=x.device, dtype=x.dtype)
    cd = torch.empty((levels, B, n), device=x.device, dtype=x.dtype)
    grid = (triton.cdiv(n, BLOCK), B)
    src = x
    for j in range(1, levels + 1):
        out = levels - j
        _swt_level[grid](src, dec_lo, dec_hi, ca[out], cd[out], n, 2 ** (j - 1),
                         F=F, BLOCK=BLOCK, num_warps=4)
        src = ca[out]
    return ca, cd
