"""Mip stack of channels-last textures: one launch per level, 2x2 box filter over contiguous output rows."""
import torch
import triton
import triton.language as tl


@triton.jit
def _mip_level(src, src_off, dst, dst_off, H_in, W_in, H_out, W_out, C: tl.constexpr, BLOCK: tl.constexpr):
    j = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    oy = tl.program_id(1)
    b = tl.program_id(2)
    mask = j < W_out * C
    ox = j // C
    c = j % C
    row0 = src + src_off + (b * H_in + 2 * oy) * W_in * C
    row1 = row0 + W_in * C
    x0 = 2 * ox * C + c
    x1 = x0 + C
    acc = tl.load(row0 + x0, mask=mask, other=0.0) + tl.load(row0 + x1, mask=mask, other=0.0)
    acc += tl.load(row1 + x0, mask=mask, other=0.0) + tl.load(row1 + x1, mask=mask, other=0.0)
    tl.store(dst + dst_off + (b * H_out + oy) * W_out * C + j, acc * 0.25, mask=mask)


def run(texture: torch.Tensor) -> torch.Tensor:
    B, H, W, C = texture.shape
    sizes = []
    h, w = H, W
    while h % 2 == 0 and w % 2 == 0:
        h, w = h // 2, w // 2
        sizes.append((h, w))
    out = torch.empty(sum(B * h * w * C for h, w in sizes), device=texture.device, dtype=torch.float32)
    src, src_off, h_in, w_in, dst_off = texture, 0, H, W, 0
    for h, w in sizes:
        BLOCK = min(1024, triton.next_power_of_2(w * C))
        grid = (triton.cdiv(w * C, BLOCK), h, B)
        _mip_level[grid](src, src_off, out, dst_off, h_in, w_in, h, w, C=C, BLOCK=BLOCK, num_warps=4)
        src, src_off, h_in, w_in = out, dst_off, h, w
        dst_off += B * h * w * C
    return out
