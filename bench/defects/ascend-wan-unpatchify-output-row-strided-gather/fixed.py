"""Wan 2.1 unpatchify for the Ascend NPU: one program per vector core, each looping over token rows (b, f, h).
A row's W tokens are one contiguous [BLOCK_W, ph*pw*C] tile in GM; the (w, q, r, c) -> (c, q, w, r) permute
happens on chip and every (c, q) output row is written as one contiguous run of W*pw values."""
import torch
import triton
import triton.language as tl
from triton.runtime import driver

PATCH = (1, 2, 2)
MAX_BLOCK_W = 128   # [128, 64] fp32 = 32 KB per tile (and its permuted copy) in the 192 KB unified buffer


def _vector_core_count(device: torch.device) -> int:
    if device.type == "npu":
        return driver.active.utils.get_device_properties(device.index or 0)["num_vectorcore"]
    return 40


@triton.jit
def _unpatchify_kernel(x_ptr, out_ptr, n_rows, n_f, n_h, n_w,
                       C: tl.constexpr, PH: tl.constexpr, PW: tl.constexpr, BLOCK_W: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    PPC: tl.constexpr = PH * PW * C
    j = tl.arange(0, PPC)
    wl = tl.arange(0, BLOCK_W)
    c4 = tl.arange(0, C)[:, None, None, None]
    q4 = tl.arange(0, PH)[None, :, None, None]
    w4 = tl.arange(0, BLOCK_W)[None, None, :, None]
    r4 = tl.arange(0, PW)[None, None, None, :]
    out_w = n_w * PW
    frame = n_h * PH * out_w
    plane = n_f * frame
    for row in range(pid, n_rows, nprog):
        h = row % n_h
        b = row // (n_h * n_f)
        f = (row // n_h) % n_f
        dst_row = out_ptr + b * C * plane + f * frame + h * PH * out_w
        for w0 in range(0, n_w, BLOCK_W):
            w = w0 + wl
            tile = tl.load(x_ptr + (row * n_w + w)[:, None] * PPC + j[None, :], mask=(w < n_w)[:, None], other=0.0)
            tile = tl.permute(tl.reshape(tile, [BLOCK_W, PH, PW, C]), [3, 1, 0, 2])
            dst = dst_row + c4 * plane + q4 * out_w + (w0 + w4) * PW + r4
            tl.store(dst, tile, mask=(w0 + w4) < n_w)


def run(x: torch.Tensor, n_f: int, n_h: int, n_w: int, out_dim: int) -> torch.Tensor:
    pt, ph, pw = PATCH
    batch = x.shape[0]
    out = torch.empty((batch, out_dim, n_f * pt, n_h * ph, n_w * pw), dtype=x.dtype, device=x.device)
    n_rows = batch * n_f * n_h
    block_w = min(MAX_BLOCK_W, triton.next_power_of_2(n_w))
    grid = (min(n_rows, _vector_core_count(x.device)),)
    _unpatchify_kernel[grid](x, out, n_rows, n_f * pt, n_h, n_w, C=out_dim, PH=ph, PW=pw, BLOCK_W=block_w)
    return out
