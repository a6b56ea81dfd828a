"""libcamera software-ISP debayer: bilinear demosaic of 10-bit BGGR with the red/green/blue LUTs -> RGB888."""
import torch
import triton
import triton.language as tl

BLOCK = 512


@triton.jit
def _debayer_bggr10(raw, luts, out, height, in_w, out_w, BLOCK: tl.constexpr):
    y = tl.program_id(1)
    j = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = j < out_w
    c = j + 2                                       # window x = 2: pattern border left and right
    y_up = tl.where(y == 0, 1, y - 1)               # mirrored neighbour rows at the frame edges
    y_dn = tl.where(y == height - 1, height - 2, y + 1)
    cur = raw + y * in_w
    up = raw + y_up * in_w
    dn = raw + y_dn * in_w
    centre = tl.load(cur + c, mask=ok, other=0).to(tl.int32)
    left = tl.load(cur + c - 1, mask=ok, other=0).to(tl.int32)
    right = tl.load(cur + c + 1, mask=ok, other=0).to(tl.int32)
    up_c = tl.load(up + c, mask=ok, other=0).to(tl.int32)
    dn_c = tl.load(dn + c, mask=ok, other=0).to(tl.int32)
    up_l = tl.load(up + c - 1, mask=ok, other=0).to(tl.int32)
    up_r = tl.load(up + c + 1, mask=ok, other=0).to(tl.int32)
    dn_l = tl.load(dn + c - 1, mask=ok, other=0).to(tl.int32)
    dn_r = tl.load(dn + c + 1, mask=ok, other=0).to(tl.int32)
    vert = (up_c + dn_c) // 8
    horiz = (left + right) // 8
    cross = (up_c + dn_c + left + right) // 16
    diag = (up_l + up_r + dn_l + dn_r) // 16
    mid = centre // 4
    even_col = (c % 2) == 0
    if y % 2 == 0:                                  # B G B G line
        b_idx = tl.where(even_col, mid, horiz)
        g_idx = tl.where(even_col, cross, mid)
        r_idx = tl.where(even_col, diag, vert)
    else:                                           # G R G R line
        b_idx = tl.where(even_col, vert, diag)
        g_idx = tl.where(even_col, mid, cross)
        r_idx = tl.where(even_col, horiz, mid)
    blue = tl.load(luts + 2 * 256 + b_idx, mask=ok, other=0)
    green = tl.load(luts + 256 + g_idx, mask=ok, other=0)
    red = tl.load(luts + r_idx, mask=ok, other=0)
    dst = out + (y * out_w + j) * 3
    tl.store(dst, blue, mask=ok)
    tl.store(dst + 1, green, mask=ok)
    tl.store(dst + 2, red, mask=ok)


def run(raw: torch.Tensor, luts: torch.Tensor) -> torch.Tensor:
    height, in_w = raw.shape
    out_w = in_w - 4
    out = torch.empty((height, out_w, 3), device=raw.device, dtype=torch.uint8)
    grid = (triton.cdiv(out_w, BLOCK), height)
    _debayer_bggr10[grid](raw, luts, out, height, in_w, out_w, BLOCK=BLOCK, num_warps=4)
    return out
