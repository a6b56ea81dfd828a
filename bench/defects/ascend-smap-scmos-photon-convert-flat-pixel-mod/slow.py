"""sCMOS camera correction on Ascend: raw ADU -> photoelectrons plus the per-pixel read-noise term var / g^2."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _scmos_convert(raw, offset, gain, var, out, n_total, n_pix, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for blk in range(pid, tl.cdiv(n_total, BLOCK), nprog):
        offs = blk * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n_total
        pix = offs % n_pix
        adu = tl.load(raw + offs, mask=mask, other=0).to(tl.float32)
        o = tl.load(offset + pix, mask=mask, other=0.0)
        g = tl.load(gain + pix, mask=mask, other=1.0)
        v = tl.load(var + pix, mask=mask, other=0.0)
        inv_g = 1.0 / g
        y = (adu - o) * inv_g + v * inv_g * inv_g
        tl.store(out + offs, y, mask=mask)


def run(raw: torch.Tensor, offset: torch.Tensor, gain: torch.Tensor, var: torch.Tensor) -> torch.Tensor:
    T, H, W = raw.shape
    out = torch.empty((T, H, W), device=raw.device, dtype=offset.dtype)
    n_total, n_pix = T * H * W, H * W
    BLOCK = 2048
    grid = (min(_VECTOR_CORES, triton.cdiv(n_total, BLOCK)),)
    _scmos_convert[grid](raw, offset, gain, var, out, n_total, n_pix, BLOCK=BLOCK)
    return out
