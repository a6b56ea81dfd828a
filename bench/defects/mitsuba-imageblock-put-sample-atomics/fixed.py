"""Mitsuba ImageBlock.put (box filter) of a wavefront of RGBA samples, then develop: image = (R, G, B, A) / W."""
import torch
import triton
import triton.language as tl

BLOCK_P = 16
BLOCK_S = 32


@triton.jit
def _put_develop(samples, image, n_pix, spp, BLOCK_P: tl.constexpr, BLOCK_S: tl.constexpr):
    p = tl.program_id(0) * BLOCK_P + tl.arange(0, BLOCK_P)
    ok = p < n_pix
    ch = tl.arange(0, 4)
    acc = tl.zeros([BLOCK_P, 4], dtype=tl.float32)
    wsum = tl.zeros([BLOCK_P], dtype=tl.float32)
    # the spp samples of a pixel are adjacent in wavefront order (sample_rays: idx //= spp):
    # sum them in registers, weight 1 each under the box filter
    for s0 in range(0, spp, BLOCK_S):
        s = s0 + tl.arange(0, BLOCK_S)
        m = ok[:, None] & (s < spp)[None, :]
        i = p[:, None] * spp + s[None, :]
        val = tl.load(samples + i[:, :, None] * 4 + ch[None, None, :], mask=m[:, :, None], other=0.0)
        acc += tl.sum(val, axis=1)
        wsum += tl.sum(m.to(tl.float32), axis=1)
    out = tl.where(wsum[:, None] > 0, acc / tl.maximum(wsum, 1.0)[:, None], 0.0)
    tl.store(image + p[:, None] * 4 + ch[None, :], out, mask=ok[:, None])


def run(samples: torch.Tensor, height: int, width: int, spp: int) -> torch.Tensor:
    n_pix = height * width
    image = torch.empty(height, width, 4, device=samples.device, dtype=samples.dtype)
    _put_develop[(triton.cdiv(n_pix, BLOCK_P),)](samples, image, n_pix, spp, BLOCK_P=BLOCK_P, BLOCK_S=BLOCK_S)
    return image
