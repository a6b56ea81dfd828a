"""HunyuanVideo VAE tiled decode: cross-fade the seam rows of a decoded tile with the tile above."""
import torch
import triton
import triton.language as tl


@triton.jit
def _lerp_rows(a, b, wb):
    a = a.to(tl.float32)
    b = b.to(tl.float32)
    return a * (1.0 - wb) + b * wb


@triton.jit
def _blend_band_kernel(above_ptr, tile_ptr, out_ptr, extent, W, h_above, h_tile,
                       BLOCK_W: tl.constexpr):
    pid = tl.program_id(0)
    p = (pid // extent).to(tl.int64)
    y = pid % extent
    cols = tl.program_id(1) * BLOCK_W + tl.arange(0, BLOCK_W)
    m = cols < W
    wb = y.to(tl.float32) / extent
    a = tl.load(above_ptr + (p * h_above + h_above - extent + y) * W + cols, mask=m, other=0.0)
    b = tl.load(tile_ptr + (p * h_tile + y) * W + cols, mask=m, other=0.0)
    tl.store(out_ptr + (p * extent + y) * W + cols, _lerp_rows(a, b, wb).to(out_ptr.dtype.element_ty), mask=m)


def _blend_v(above, tile, out, extent, launch):
    h_above, W = above.shape[-2], above.shape[-1]
    planes = out.numel() // (extent * W)
    grid = (planes * extent, triton.cdiv(W, launch["BLOCK_W"]))
    _blend_band_kernel[grid](above, tile, out, extent, W, h_above, tile.shape[-2], **launch)


def run(above: torch.Tensor, tile: torch.Tensor, extent: int) -> torch.Tensor:
    B, C, T, H, W = tile.shape
    e = min(above.shape[-2], H, extent)
    out = torch.empty((B, C, T, e, W), device=tile.device, dtype=tile.dtype)
    launch = {"BLOCK_W": min(256, triton.next_power_of_2(W)), "num_warps": 4}
    _blend_v(above, tile, out, e, launch)
    return out
