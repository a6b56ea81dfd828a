"""Cycles film_convert_combined_half_rgba: render buffer combined pass -> half RGBA display pixels."""
import torch
import triton
import triton.language as tl

BLOCK = 512


@triton.jit
def _film_convert_half_rgba(render_buffer, rgba, y, width, pass_stride, pass_combined, pass_sample_count,
                            exposure, BLOCK: tl.constexpr):
    x = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inside = x < width
    pixel = y * width + x
    buffer = render_buffer + pixel * pass_stride

    n = tl.load(buffer + pass_sample_count, mask=inside, other=0.0).to(tl.int32, bitcast=True)
    scale = 1.0 / tl.maximum(n, 1).to(tl.float32)
    scale_exposure = scale * exposure

    c = tl.arange(0, 4)
    combined = tl.load(buffer[:, None] + pass_combined + c[None, :], mask=inside[:, None], other=0.0)
    color = combined * scale_exposure[:, None]
    alpha = tl.minimum(tl.maximum(1.0 - combined * scale[:, None], 0.0), 1.0)
    out = tl.where(c[None, :] < 3, color, alpha)
    out = tl.where(n[:, None] > 0, out, 0.0)

    # float4_store_half: NaN -> 0, clamp to the half display range
    out = tl.where(out == out, out, 0.0)
    out = tl.minimum(tl.maximum(out, 0.0), 65504.0)
    tl.store(rgba + pixel[:, None] * 4 + c[None, :], out.to(tl.float16), mask=inside[:, None])


def run(render_buffer: torch.Tensor, exposure: float, pass_combined: int, pass_sample_count: int) -> torch.Tensor:
    height, width, pass_stride = render_buffer.shape
    rgba = torch.empty((height, width, 4), device=render_buffer.device, dtype=torch.float16)
    grid = (triton.cdiv(width, BLOCK),)
    for y in range(height):
        _film_convert_half_rgba[grid](render_buffer, rgba, y, width, pass_stride, pass_combined, pass_sample_count,
                                      exposure, BLOCK=BLOCK, num_warps=4)
    return rgba
