"""libvips reducev (Lanczos3): each output line is a weighted sum of n_point consecutive input lines."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _reducev(src, row0, wts, dst, OH, C, stride_s, stride_d,
             NPOINT: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    nchunk = tl.cdiv(C, BLOCK)
    for item in range(pid, OH * nchunk, nprog):
        oy = item // nchunk
        chunk = item % nchunk
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
    grid = (min(_VECTOR_CORES, oh * triton.cdiv(c, BLOCK)),)
    _reducev[grid](src, row0, wts, out, oh, c, c, c, NPOINT=npoint, BLOCK=BLOCK)
    return out
