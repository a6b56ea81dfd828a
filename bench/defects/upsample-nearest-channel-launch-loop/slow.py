"""Nearest 2x upsampling: one launch per image of the batch, grid (output rows, channels)."""
import torch
import triton
import triton.language as tl


@triton.jit
def upsample_nearest_kernel(x_ptr, y_ptr, H, W, OH, OW, SCALE: tl.constexpr, BLOCK_W: tl.constexpr):
    oh = tl.program_id(0)
    c = tl.program_id(1)
    ow = tl.arange(0, BLOCK_W)
    ih = oh // SCALE
    iw = ow // SCALE
    v = tl.load(x_ptr + (c * H + ih) * W + iw, mask=ow < OW)
    tl.store(y_ptr + (c * OH + oh) * OW + ow, v, mask=ow < OW)


def _upsample_image(x: torch.Tensor, y: torch.Tensor, scale: int) -> None:
    C, H, W = x.shape
    OH, OW = y.shape[1], y.shape[2]
    upsample_nearest_kernel[(OH, C)](x, y, H, W, OH, OW, SCALE=scale, BLOCK_W=triton.next_power_of_2(OW),
                                     num_warps=1)


def run(x: torch.Tensor) -> torch.Tensor:
    N, C, H, W = x.shape
    y = torch.empty((N, C, 2 * H, 2 * W), device=x.device, dtype=x.dtype)
    for n in range(N):
        _upsample_image(x[n], y[n], 2)
    return y
