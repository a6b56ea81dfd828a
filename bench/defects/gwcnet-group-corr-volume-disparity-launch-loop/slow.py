"""GwcNet group-wise correlation volume: one cost slice per disparity, as build_gwc_volume does."""
import torch
import triton
import triton.language as tl


@triton.jit
def _feature_tile(ptr, chan, cols, hw, ok):
    return tl.load(ptr + chan[:, None] * hw + cols[None, :], mask=ok[None, :], other=0.0)


@triton.jit
def gwc_volume_kernel(left_ptr, right_ptr, out_ptr, C, H, W, G, D, d,
                      CG: tl.constexpr, BLOCK_W: tl.constexpr):
    bg = tl.program_id(0)
    h = tl.program_id(1)
    wb = tl.program_id(2)
    b = bg // G
    g = bg % G
    hw = H * W
    cols = wb * BLOCK_W + tl.arange(0, BLOCK_W)
    chan = g * CG + tl.arange(0, CG)
    in_w = cols < W
    row = b * C * hw + h * W
    lt = _feature_tile(left_ptr + row, chan, cols, hw, in_w)
    out_row = out_ptr + bg * D * hw + h * W
    src = cols - d
    rt = _feature_tile(right_ptr + row, chan, src, hw, in_w & (src >= 0))
    corr = tl.sum(lt * rt, axis=0) / CG
    tl.store(out_row + d * hw + cols, corr, mask=in_w)


def run(left: torch.Tensor, right: torch.Tensor, num_groups: int, max_disp: int) -> torch.Tensor:
    B, C, H, W = left.shape
    out = torch.empty((B, num_groups, max_disp, H, W), device=left.device, dtype=left.dtype)
    BLOCK_W = min(triton.next_power_of_2(W), 256)
    grid = (B * num_groups, H, triton.cdiv(W, BLOCK_W))
    for d in range(max_disp):
        gwc_volume_kernel[grid](left, right, out, C, H, W, num_groups, max_disp, d,
                                CG=C // num_groups, BLOCK_W=BLOCK_W, num_warps=4)
    return out
