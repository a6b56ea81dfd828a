"""Mitsuba ImageBlock.put (box filter) of a wavefront of RGBA samples, then develop: image = (R, G, B, A) / W."""
import torch
import triton
import triton.language as tl

BLOCK = 256
BLOCK_P = 64


@triton.jit
def _put_samples(samples, block, n_samples, spp, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = i < n_samples
    ch = tl.arange(0, 4)
    pix = i // spp  # sample_rays: idx //= spp
    val = tl.load(samples + i[:, None] * 4 + ch[None, :], mask=ok[:, None], other=0.0)
    # box filter: the sample lands in its own pixel with weight 1 -> channels (R, G, B, A, W)
    tl.atomic_add(block + pix[:, None] * 5 + ch[None, :], val, mask=ok[:, None])
    tl.atomic_add(block + pix * 5 + 4, tl.full([BLOCK], 1.0, tl.float32), mask=ok)


@triton.jit
def _develop(block, image, n_pix, BLOCK_P: tl.constexpr):
    p = tl.program_id(0) * BLOCK_P + tl.arange(0, BLOCK_P)
    ok = p < n_pix
    ch = tl.arange(0, 4)
    acc = tl.load(block + p[:, None] * 5 + ch[None, :], mask=ok[:, None], other=0.0)
    wsum = tl.load(block + p * 5 + 4, mask=ok, other=0.0)
    out = tl.where(wsum[:, None] > 0, acc / tl.maximum(wsum, 1.0)[:, None], 0.0)
    tl.store(image + p[:, None] * 4 + ch[None, :], out, mask=ok[:, None])


def run(samples: torch.Tensor, height: int, width: int, spp: int) -> torch.Tensor:
    n_pix = height * width
    n_samples = samples.shape[0]
    block = torch.zeros(n_pix, 5, device=samples.device, dtype=torch.float32)
    image = torch.empty(height, width, 4, device=samples.device, dtype=samples.dtype)
    _put_samples[(triton.cdiv(n_samples, BLOCK),)](samples, block, n_samples, spp, BLOCK=BLOCK)
    _develop[(triton.cdiv(n_pix, BLOCK_P),)](block, image, n_pix, BLOCK_P=BLOCK_P)
    return image
