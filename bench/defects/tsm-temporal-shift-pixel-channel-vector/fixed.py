"""TSM temporal shift: one program per (frame, channel) plane block, copying contiguous pixels."""
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
def temporal_shift_kernel(x_ptr, out_ptr, C, HW, num_segments, fold, BLOCK: tl.constexpr):
    plane = tl.program_id(0)
    blk = tl.program_id(1)
    nt = plane // C
    c = plane % C
    n = nt // num_segments
    t = nt % num_segments
    src, valid = _source_frame(t, c, num_segments, fold)
    offs = blk * BLOCK + tl.arange(0, BLOCK)
    m = offs < HW
    src_plane = ((n * num_segments + src) * C + c).to(tl.int64) * HW
    vals = tl.load(x_ptr + src_plane + offs, mask=m & valid, other=0.0)
    tl.store(out_ptr + plane.to(tl.int64) * HW + offs, vals, mask=m)


def run(x: torch.Tensor, num_segments: int) -> torch.Tensor:
    nt, c, h, w = x.shape
    hw = h * w
    out = torch.empty_like(x)
    BLOCK = min(1024, triton.next_power_of_2(hw))
    grid = (nt * c, triton.cdiv(hw, BLOCK))
    temporal_shift_kernel[grid](x, out, c, hw, num_segments, c // 8, BLOCK=BLOCK, num_warps=4)
    return out
