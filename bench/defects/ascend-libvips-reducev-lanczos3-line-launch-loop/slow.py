"""libvips reducev (Lanczos3): each output line is a weighted sum of n_point consecutive input lines."""
import torch
import triton
import triton.language as tl


@triton.jit
def _reducev_line(src, row0, wts, dst, oy, C, stride_s, stride_d,
                  NPOINT: tl.constexpr, BLOCK: tl.constexpr):
    chunk = tl.program_id(0)
    xs = chunk * BLOCK + tl.arange(0, BLOCK)
    m = xs < C
    r0 = tl.load(row0 + oy)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for i in range(NPOINT):
        w = tl.load(wts + oy * NPOINT + i)
        v = tl.load(src + (r0 + i) * stride_s + xs, mask=m, other=0.0)
        acc += w * v
    tl.store(dst + oy * stride_d + xs, acc, mask=m)


def run(src: torch.Tensor, row0: torch.Tensor, wts: torch.Tensor) -> torch.Tensor:
    _, w, bands = src.shape
    oh, npoint = wts.shape
    c = w * bands
    out = torch.empty((oh, w, bands), device=src.device, dtype=src.dtype)
    BLOCK = min(1024, triton.next_power_of_2(c))
    grid = (triton.cdiv(c, BLOCK),)
    # one launch per output line, as vips_reducev_gen walks its output region line by line
    for oy in range(oh):
        _reducev_line[grid](src, row0, wts, out, oy, c, c, c, NPOINT=npoint, BLOCK=BLOCK)
    return out
