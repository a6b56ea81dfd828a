"""TSM temporal shift: one program per (frame, pixel), moving that pixel's channel vector."""
import torch
import triton
import triton.language as tl


@triton.jit
def _source_frame(t, c, num_segments, fold):
    # channel group 0 reads the next frame, group 1 the previous one, the rest stay in place
    src = tl.where(c < fold, t + 1, tl.where(c < 2 * fold, t - 1, t))
    valid = (src >= 0) & (src < num_segments)
    return src, valid


@triton.jit
def temporal_shift_kernel(x_ptr, out_ptr, C, HW, num_segments, fold, BLOCK_C: tl.constexpr):
    nt = tl.program_id(0)
    p = tl.program_id(1)
    n = nt // num_segments
    t = nt % num_segments
    c = tl.arange(0, BLOCK_C)
    mc = c < C
    src, valid = _source_frame(t, c, num_segments, fold)
    src_offs = ((n * num_segments + src) * C + c).to(tl.int64) * HW + p
    vals = tl.load(x_ptr + src_offs, mask=mc & valid, other=0.0)
    tl.store(out_ptr + (nt * C + c).to(tl.int64) * HW + p, vals, mask=mc)


def run(x: torch.Tensor, num_segments: int) -> torch.Tensor:
    nt, c, h, w = x.shape
    hw = h * w
    out = torch.empty_like(x)
    BLOCK_C = triton.next_power_of_2(c)
    grid = (nt, hw)
    temporal_shift_kernel[grid](x, out, c, hw, num_segments, c // 8, BLOCK_C=BLOCK_C, num_warps=4)
    return out
