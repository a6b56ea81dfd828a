"""XDS INIT background: per-pixel mean over the background frames with one outlier-rejection pass."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _bkginit_fwd(frames, bkg, n_used, F, n_pix, nsig, BP: tl.constexpr, BF: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    fr = tl.arange(0, BF)
    fmask = fr < F
    for blk in range(pid, tl.cdiv(n_pix, BP), nprog):
        pix = blk * BP + tl.arange(0, BP)
        pmask = pix < n_pix
        # one row per frame, the block's contiguous pixels along the row
        mask = fmask[:, None] & pmask[None, :]
        v = tl.load(frames + fr[:, None] * n_pix + pix[None, :], mask=mask, other=-1).to(tl.float32)
        ok = v >= 0.0
        n1 = tl.sum(ok.to(tl.float32), axis=0)
        mean1 = tl.sum(tl.where(ok, v, 0.0), axis=0) / tl.maximum(n1, 1.0)
        cut = mean1 + nsig * tl.sqrt(tl.maximum(mean1, 1.0))
        keep = ok & (v <= cut[None, :])
        n2 = tl.sum(keep.to(tl.float32), axis=0)
        s2 = tl.sum(tl.where(keep, v, 0.0), axis=0)
        b = tl.where(n2 > 0.0, s2 / tl.maximum(n2, 1.0), 0.0)
        tl.store(bkg + pix, b, mask=pmask)
        tl.store(n_used + pix, n2.to(tl.int32), mask=pmask)


def run(frames: torch.Tensor, nsig: float) -> tuple:
    F, H, W = frames.shape
    bkg = torch.empty((H, W), device=frames.device, dtype=torch.float32)
    n_used = torch.empty((H, W), device=frames.device, dtype=torch.int32)
    BP = 128
    BF = triton.next_power_of_2(F)
    grid = (min(_VECTOR_CORES, triton.cdiv(H * W, BP)),)
    _bkginit_fwd[grid](frames, bkg, n_used, F, H * W, nsig, BP=BP, BF=BF)
    return bkg, n_used
