"""Qwen3-VL fast_pos_embed_interpolate on Ascend: bilinear resampling of the learned position-embedding
grid to the image's patch grid, written in spatial-merge order; grid sized to the vector cores."""
import torch
import triton
import triton.language as tl

CORE_NUM = 40
MERGE = 2
BLOCK_T = 32
BLOCK_C = 128


@triton.jit
def _merge_order_coords(tok, h, w, MERGE: tl.constexpr):
    local = tok % (h * w)
    unit = local // (MERGE * MERGE)
    inner = local % (MERGE * MERGE)
    units_w = w // MERGE
    row = (unit // units_w) * MERGE + inner // MERGE
    col = (unit % units_w) * MERGE + inner % MERGE
    return row, col


@triton.jit
def _linspace_taps(i, step, side):
    pos = i.to(tl.float32) * step
    lo = pos.to(tl.int32)
    hi = tl.minimum(lo + 1, side - 1)
    return lo, hi, pos - lo.to(tl.float32)


@triton.jit
def pos_embed_interp_kernel(table_ptr, out_ptr, n_tok, h, w, side, C, step_h, step_w, stride_pos, stride_c,
                            out_stride_tok, out_stride_c, MERGE: tl.constexpr,
                            BLOCK_T: tl.constexpr, BLOCK_C: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    n_c_blocks = tl.cdiv(C, BLOCK_C)
    for task in range(pid, tl.cdiv(n_tok, BLOCK_T) * n_c_blocks, nprog):
        offs_t = (task // n_c_blocks) * BLOCK_T + tl.arange(0, BLOCK_T)
        offs_c = (task % n_c_blocks) * BLOCK_C + tl.arange(0, BLOCK_C)
        t_mask = offs_t < n_tok
        mask = t_mask[:, None] & (offs_c < C)[None, :]
        row, col = _merge_order_coords(offs_t, h, w, MERGE)
        y0, y1, dy = _linspace_taps(row, step_h, side)
        x0, x1, dx = _linspace_taps(col, step_w, side)
        c_off = (offs_c * stride_c)[None, :]
        e00 = tl.load(table_ptr + ((y0 * side + x0) * stride_pos)[:, None] + c_off, mask=mask, other=0.0)
        e01 = tl.load(table_ptr + ((y0 * side + x1) * stride_pos)[:, None] + c_off, mask=mask, other=0.0)
        e10 = tl.load(table_ptr + ((y1 * side + x0) * stride_pos)[:, None] + c_off, mask=mask, other=0.0)
        e11 = tl.load(table_ptr + ((y1 * side + x1) * stride_pos)[:, None] + c_off, mask=mask, other=0.0)
        wy = dy[:, None]
        wx = dx[:, None]
        top = e00.to(tl.float32) * (1.0 - wx) + e01.to(tl.float32) * wx
        bot = e10.to(tl.float32) * (1.0 - wx) + e11.to(tl.float32) * wx
        res = top * (1.0 - wy) + bot * wy
        tl.store(out_ptr + (offs_t * out_stride_tok)[:, None] + (offs_c * out_stride_c)[None, :],
                 res.to(out_ptr.dtype.element_ty), mask=mask)


def run(pos_embed: torch.Tensor, t: int, h: int, w: int) -> torch.Tensor:
    side = int(round(pos_embed.shape[0] ** 0.5))
    C = pos_embed.shape[1]
    n_tok = t * h * w
    out = torch.empty((n_tok, C), dtype=pos_embed.dtype, device=pos_embed.device)
    step_h = (side - 1) / (h - 1) if h > 1 else 0.0
    step_w = (side - 1) / (w - 1) if w > 1 else 0.0
    n_tasks = triton.cdiv(n_tok, BLOCK_T) * triton.cdiv(C, BLOCK_C)
    pos_embed_interp_kernel[(min(CORE_NUM, n_tasks),)](
        pos_embed, out, n_tok, h, w, side, C, step_h, step_w, pos_embed.stride(0), pos_embed.stride(1),
        out.stride(0), out.stride(1), MERGE=MERGE, BLOCK_T=BLOCK_T, BLOCK_C=BLOCK_C)
    return out
