"""AV1 CDEF direction search (dav1d cdef_find_dir) for every 8x8 block of a high-bitdepth luma plane."""
import torch
import triton
import triton.language as tl

BLOCKS = 16  # 8x8 blocks per program, side by side in one block row


@triton.jit
def _cdef_find_dir(src, dir_out, var_out, nbx, stride,
                   BD_MIN_8: tl.constexpr, BLOCKS: tl.constexpr):
    by = tl.program_id(1)
    bx = tl.program_id(0) * BLOCKS + tl.arange(0, BLOCKS)
    ok = bx < nbx
    p = tl.arange(0, 64)
    y = p >> 3
    x = p & 7
    offs = (by * 8 + y)[None, :] * stride + (bx * 8)[:, None] + x[None, :]
    pix = tl.load(src + offs, mask=ok[:, None], other=0).to(tl.int32)
    px = (pix >> BD_MIN_8) - 128                        # [BLOCKS, 64], in [-128, 127]
    pxh = px.to(tl.float16)                             # exact: 8-bit integers
    lines = tl.arange(0, 16)
    dirs = tl.arange(0, 8)
    cost = tl.zeros([BLOCKS, 8], dtype=tl.int32)
    for d in tl.static_range(8):
        if d == 0:
            line = y + x
        elif d == 1:
            line = y + (x >> 1)
        elif d == 2:
            line = y
        elif d == 3:
            line = 3 + y - (x >> 1)
        elif d == 4:
            line = 7 + y - x
        elif d == 5:
            line = 3 - (y >> 1) + x
        elif d == 6:
            line = x
        else:
            line = (y >> 1) + x
        # pixels on each line -> dav1d's div_table weight 840 / count
        if d == 2 or d == 6:
            count = tl.where(lines < 8, 8, 0)
        elif d == 0 or d == 4:
            count = tl.where(lines < 15, tl.minimum(lines + 1, 15 - lines), 0)
        else:
            count = tl.where(lines < 11, tl.minimum(2 * tl.minimum(lines + 1, 11 - lines), 8), 0)
        weight = tl.where(count > 0, 840 // tl.maximum(count, 1), 0)
        onehot = line[:, None] == lines[None, :]        # [64, 16]: pixel -> line
        part = tl.dot(pxh, onehot.to(tl.float16)).to(tl.int32)
        c = tl.sum(part * part * weight[None, :], axis=1)
        cost = tl.where(dirs[None, :] == d, c[:, None], cost)
    best = tl.max(cost, axis=1)
    best_dir = tl.argmax(cost, axis=1, tie_break_left=True)
    opp = tl.sum(tl.where(dirs[None, :] == (best_dir ^ 4)[:, None], cost, 0), axis=1)
    var = (best - opp) >> 10
    tl.store(dir_out + by * nbx + bx, best_dir.to(tl.int32), mask=ok)
    tl.store(var_out + by * nbx + bx, var, mask=ok)


def run(frame: torch.Tensor, bitdepth: int) -> tuple:
    h, w = frame.shape
    nby, nbx = h // 8, w // 8
    dirs = torch.empty(nby, nbx, device=frame.device, dtype=torch.int32)
    var = torch.empty(nby, nbx, device=frame.device, dtype=torch.int32)
    grid = (triton.cdiv(nbx, BLOCKS), nby)
    _cdef_find_dir[grid](frame, dirs, var, nbx, frame.stride(0),
                         BD_MIN_8=bitdepth - 8, BLOCKS=BLOCKS, num_warps=4)
    return dirs, var
