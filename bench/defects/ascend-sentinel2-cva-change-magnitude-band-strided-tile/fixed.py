"""CVA change magnitude between two Sentinel-2 dates: sqrt of the weighted squared band differences per pixel."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40


@triton.jit
def _cva_magnitude(x1, x2, w, out, n_pix, n_tiles,
                   NB: tl.constexpr, BLOCK_P: tl.constexpr, NPROG: tl.constexpr):
    pid = tl.program_id(0)
    for t in range(pid, n_tiles, NPROG):
        pix = t * BLOCK_P + tl.arange(0, BLOCK_P)
        pmask = pix < n_pix
        acc = tl.zeros([BLOCK_P], dtype=tl.float32)
        for band in range(NB):
            wb = tl.load(w + band)
            a = tl.load(x1 + band * n_pix + pix, mask=pmask, other=0.0)
            b = tl.load(x2 + band * n_pix + pix, mask=pmask, other=0.0)
            d = (b - a) * wb
            acc += d * d
        tl.store(out + pix, tl.sqrt(acc), mask=pmask)


def run(x1, x2, w):
    B, H, W = x1.shape
    out = torch.empty((H, W), device=x1.device, dtype=torch.float32)
    BLOCK_P = 2048
    n_tiles = triton.cdiv(H * W, BLOCK_P)
    nprog = min(NUM_VECTOR_CORES, n_tiles)
    _cva_magnitude[(nprog,)](x1, x2, w, out, H * W, n_tiles, NB=B, BLOCK_P=BLOCK_P, NPROG=nprog)
    return out
