"""x264 quant_8x8 + zigzag_scan_8x8_frame + coeff_last64 over every 8x8 luma block of a frame."""
import torch
import triton
import triton.language as tl

BLOCKS = 32


@triton.jit
def _quant_8x8_zigzag(dct, qp, mf, bias, scan, level, last, n_blocks, BLOCKS: tl.constexpr):
    b = tl.program_id(0) * BLOCKS + tl.arange(0, BLOCKS)
    ok = b < n_blocks
    k = tl.arange(0, 64)
    pos = tl.load(scan + k)                        # raster index of scan position k
    q = tl.load(qp + b, mask=ok, other=0)
    c = tl.load(dct + b[:, None] * 64 + pos[None, :], mask=ok[:, None], other=0).to(tl.int32)
    m = tl.load(mf + q[:, None] * 64 + pos[None, :], mask=ok[:, None], other=0)
    f = tl.load(bias + q[:, None] * 64 + pos[None, :], mask=ok[:, None], other=0)
    lv = ((tl.abs(c) + f) * m) >> 16               # QUANT_ONE
    lv = tl.where(c < 0, -lv, lv)
    tl.store(level + b[:, None] * 64 + k[None, :], lv.to(tl.int16), mask=ok[:, None])
    tl.store(last + b, tl.max(tl.where(lv != 0, k[None, :], -1), axis=1), mask=ok)


def run(dct: torch.Tensor, qp: torch.Tensor, mf: torch.Tensor, bias: torch.Tensor,
        scan: torch.Tensor) -> tuple:
    nb = dct.shape[0]
    level = torch.empty((nb, 64), device=dct.device, dtype=torch.int16)
    last = torch.empty(nb, device=dct.device, dtype=torch.int32)
    _quant_8x8_zigzag[(triton.cdiv(nb, BLOCKS),)](dct, qp, mf, bias, scan, level, last, nb,
                                                  BLOCKS=BLOCKS, num_warps=4)
    return level, last
