"""Landsat C2 L2 surface reflectance with the QA_PIXEL cloud / shadow mask, band-sequential uint16 in, fp32 out."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40
QA_REJECT_BITS = 0b11111
SR_SCALE, SR_OFFSET = 2.75e-5, -0.2


@triton.jit
def _sr_qa_mask(sr, qa, out, n_pix, n_tiles, scale, offset,
                NB: tl.constexpr, REJECT: tl.constexpr, BLOCK: tl.constexpr, NPROG: tl.constexpr):
    pid = tl.program_id(0)
    for t in range(pid, n_tiles, NPROG):
        offs = t * BLOCK + tl.arange(0, BLOCK)
        inb = offs < n_pix
        bits = tl.load(qa + offs, mask=inb, other=1).to(tl.int32) & REJECT
        clear = bits.to(tl.float32) == 0.0
        for b in range(NB):
            dn = tl.load(sr + b * n_pix + offs, mask=inb, other=0).to(tl.float32)
            refl = tl.where(clear, dn * scale + offset, 0.0)
            tl.store(out + b * n_pix + offs, refl, mask=inb)


def run(sr, qa):
    B, H, W = sr.shape
    out = torch.empty((B, H, W), device=sr.device, dtype=torch.float32)
    BLOCK = 4096
    n_tiles = triton.cdiv(H * W, BLOCK)
    nprog = min(NUM_VECTOR_CORES, n_tiles)
    _sr_qa_mask[(nprog,)](sr, qa, out, H * W, n_tiles, SR_SCALE, SR_OFFSET,
                          NB=B, REJECT=QA_REJECT_BITS, BLOCK=BLOCK, NPROG=nprog)
    return out
