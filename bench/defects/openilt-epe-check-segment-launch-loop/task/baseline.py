"""ICCAD13 / OpenILT EPE check: inner and outer violations at the check sites of every target edge segment."""
import torch
import triton
import triton.language as tl

BLOCK = 64  # check sites per segment: a 2048 px edge has 51


@triton.jit
def _epe_segment(img_ptr, seg_ptr, count_ptr, H, W, constraint, interval, min_len,
                 BLOCK: tl.constexpr):
    seg = tl.program_id(0)
    horizontal = tl.load(seg_ptr + seg * 5 + 0)
    fixed = tl.load(seg_ptr + seg * 5 + 1)
    lo = tl.load(seg_ptr + seg * 5 + 2)
    hi = tl.load(seg_ptr + seg * 5 + 3)
    inward = tl.load(seg_ptr + seg * 5 + 4)
    centre = (lo + hi) // 2
    j = tl.arange(0, BLOCK)
    # long edges: sites every `interval` from both ends towards the centre; short edges: the centre only
    n_lo = (centre - lo - interval) // interval + 1
    n_hi = (hi - interval - centre - 1) // interval + 1
    pos = tl.where(j < n_lo, lo + interval * (j + 1), hi - interval * (j - n_lo + 1))
    valid = j < n_lo + n_hi
    short = (hi - lo) <= min_len
    pos = tl.where(short, centre, pos)
    valid = tl.where(short, j == 0, valid)
    inner = fixed + constraint * inward
    outer = fixed - constraint * inward
    is_h = horizontal != 0
    in_r = tl.where(is_h, inner, pos)
    in_c = tl.where(is_h, pos, inner)
    out_r = tl.where(is_h, outer, pos)
    out_c = tl.where(is_h, pos, outer)
    in_ok = valid & (in_r >= 0) & (in_r < H) & (in_c >= 0) & (in_c < W)
    out_ok = valid & (out_r >= 0) & (out_r < H) & (out_c >= 0) & (out_c < W)
    p_in = tl.load(img_ptr + in_r * W + in_c, mask=in_ok, other=0.0)
    p_out = tl.load(img_ptr + out_r * W + out_c, mask=out_ok, other=0.0)
    n_inner = tl.sum((valid & (p_in == 0.0)).to(tl.int32), axis=0)
    n_outer = tl.sum((valid & (p_out != 0.0)).to(tl.int32), axis=0)
    tl.atomic_add(count_ptr + 0, n_inner)
    tl.atomic_add(count_ptr + 1, n_outer)


def run(printed: torch.Tensor, segments: torch.Tensor, constraint: int, interval: int,
        min_len: int) -> torch.Tensor:
    H, W = printed.shape
    counts = torch.zeros(2, device=printed.device, dtype=torch.int32)
    # all edges in one launch: one program per segment
    _epe_segment[(segments.shape[0],)](printed, segments, counts, H, W, constraint, interval, min_len,
                                       BLOCK=BLOCK, num_warps=4)
    return counts
