"""x264 quant_8x8 + zigzag_scan_8x8_frame + coeff_last64 over every 8x8 luma block of a frame."""
import torch
import triton
import triton.language as tl


@triton.jit
def _quant_8x8_zigzag(dct, qp, mf, bias, scan, level, last):
    b = tl.program_id(0)
    k = tl.arange(0, 64)
    pos = tl.load(scan + k)                        # raster index of scan position k
    q = tl.load(qp + b)
    c = tl.load(dct + b * 64 + pos).to(tl.int32)
    m = tl.load(mf + q * 64 + pos)
    f = tl.load(bias + q * 64 + pos)
    lv = ((tl.abs(c) + f) * m) >> 16               # QUANT_ONE
    lv = tl.where(c < 0, -lv, lv)
    tl.store(level + b * 64 + k, lv.to(tl.int16))
    tl.store(last + b, tl.max(tl.where(lv != 0, k, -1), axis=0))


def run(dct: torch.Tensor, qp: torch.Tensor, mf: torch.Tensor, bias: torch.Tensor,
        scan: torch.Tensor) -> tuple:
    nb = dct.shape[0]
    level = torch.empty((nb, 64), device=dct.device, dtype=torch.int16)
    last = torch.empty(nb, device=dct.device, dtype=torch.int32)
    _quant_8x8_zigzag[(nb,)](dct, qp, mf, bias, scan, level, last, num_warps=4)
    return level, last
