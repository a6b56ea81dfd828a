"""Qwen3-VL fast_pos_embed_interpolate on Ascend: bilinear resampling of the learned position-embedding
grid to the image's patch grid, one embedding channel plane per task, written in spatial-merge order;
grid sized to the vector cores."""
import torch
import triton
import triton.language as tl

CORE_NUM = 40
MERGE = 2
BLOCK_P = 1024


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
                            out_stride_tok, out_stride_c, MERGE: tl.constexpr, BLOCK_P: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    n_p_blocks = tl.cdiv(n_tok, BLOCK_P)
    for task in range(pid, C * n_p_blocks, nprog):
        c = task // n_p_blocks
        offs_p = (task % n_p_blocks) * BLOCK_P + tl.arange(0, BLOCK_P)
        mask = offs_p < n_tok
        row, col = _merge_order_coords(offs_p, h, w, MERGE)
        y0, y1, dy = _linspace_taps(row, step_h, side)
        x0, x1, dx = _linspace_taps(col, step_w, side)
        plane = table_ptr + c * stride_c
        e00 = tl.load(plane + (y0 * side + x0) * stride_pos, mask=mask, other=0.0).to(tl.float32)
        e01 = tl.load(plane + (y0 * side + x1) * stride_pos, mask=mask, other=0.0).to(tl.float32)
        e10 = tl.load(plane + (y1 * side + x0) * stride_pos, mask=mask, other=0.0).to(tl.float32)
        e11 = tl.load(plane + (y1 * side + x1) * stride_pos, mask=mask, other=0.0).to(tl.float32)
        top = e00 * (1.0 - dx) + e01 * dx
        bot = e10 * (1.0 - dx) + e11 * dx
        res = top * (1.0 - dy) + bot * dy
        tl.store(out_ptr + c * out_stride_c + offs_p * out_stride_tok, res.to(out_ptr.dtype.element_ty), mask=mask)


def run(pos_embed: torch.Tensor, t: int, h: int, w: int) -> torch.Tensor:
    side = int(round(pos_embed.shape[0] ** 0.5))
    C = pos_embed.shape[1]
    n_tok = t * h * w
    out = torch.empty((n_tok, C), dtype=pos_embed.dtype, device=pos_embed.device)
    step_h = (side - 1) / (h - 1) if h > 1 else 0.0
    step_w = (side - 1) / (w - 1) if w > 1 else 0.0
    n_tasks = C * triton.cdiv(n_tok, BLOCK_P)
    pos_embed_interp_kernel[(min(CORE_NUM, n_tasks),)](
        pos_embed, out, n_tok, h, w, side, C, step_h, step_w, pos_embed.stride(0), pos_embed.stride(1),
        out.stride(0), out.stride(1), MERGE=MERGE, BLOCK_P=BLOCK_P)
    return out
