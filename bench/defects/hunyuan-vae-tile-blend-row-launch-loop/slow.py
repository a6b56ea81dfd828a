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
def _blend_row_kernel(above_ptr, tile_ptr, out_ptr, row_above, row_tile, row_out, W,
                      plane_above, plane_tile, plane_out, wb, BLOCK_W: tl.constexpr):
    p = tl.program_id(0).to(tl.int64)
    cols = tl.program_id(1) * BLOCK_W + tl.arange(0, BLOCK_W)
    m = cols < W
    a = tl.load(above_ptr + p * plane_above + row_above * W + cols, mask=m, other=0.0)
    b = tl.load(tile_ptr + p * plane_tile + row_tile * W + cols, mask=m, other=0.0)
    tl.store(out_ptr + p * plane_out + row_out * W + cols, _lerp_rows(a, b, wb).to(out_ptr.dtype.element_ty), mask=m)


def _blend_v(above, tile, out, extent, launch):
    h_above, W = above.shape[-2], above.shape[-1]
    planes = out.numel() // (extent * W)
    grid = (planes, triton.cdiv(W, launch["BLOCK_W"]))
    for y in range(extent):
        _blend_row_kernel[grid](above, tile, out, h_above - extent + y, y, y, W,
                                h_above * W, tile.shape[-2] * W, extent * W, y / extent, **launch)


def run(above: torch.Tensor, tile: torch.Tensor, extent: int) -> torch.Tensor:
    B, C, T, H, W = tile.shape
    e = min(above.shape[-2], H, extent)
    out = torch.empty((B, C, T, e, W), device=tile.device, dtype=tile.dtype)
    launch = {"BLOCK_W": min(256, triton.next_power_of_2(W)), "num_warps": 4}
    _blend_v(above, tile, out, e, launch)
    return out
