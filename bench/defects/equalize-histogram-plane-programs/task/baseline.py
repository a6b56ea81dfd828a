"""Per-plane 256-bin histograms of a uint8 image batch: a 2-D grid of (plane, pixel chunk) programs,
each histograms one chunk and adds its counts into the plane's row."""
import torch
import triton
import triton.language as tl


@triton.jit
def _chunk_hist(plane_ptr, start, plane_size, BLOCK: tl.constexpr, BINS: tl.constexpr):
    offs = start + tl.arange(0, BLOCK)
    live = offs < plane_size
    px = tl.load(plane_ptr + offs, mask=live, other=0).to(tl.int32)
    return tl.histogram(px, BINS, mask=live)


@triton.jit
def plane_hist_kernel(x_ptr, hist_ptr, plane_size, BLOCK: tl.constexpr, BINS: tl.constexpr):
    plane = tl.program_id(0)
    chunk = tl.program_id(1)
    plane_ptr = x_ptr + plane.to(tl.int64) * plane_size
    counts = _chunk_hist(plane_ptr, chunk * BLOCK, plane_size, BLOCK, BINS)
    tl.atomic_add(hist_ptr + plane * BINS + tl.arange(0, BINS), counts, sem="relaxed")


def run(x: torch.Tensor) -> torch.Tensor:
    n, c, h, w = x.shape
    planes, plane_size = n * c, h * w
    bins = 256
    hist = torch.zeros((planes, bins), device=x.device, dtype=torch.int32)
    block = min(16384, triton.next_power_of_2(plane_size))
    opts = {"num_warps": 8}
    plane_hist_kernel[(planes, triton.cdiv(plane_size, block))](x, hist, plane_size,
                                                                BLOCK=block, BINS=bins, **opts)
    return hist
