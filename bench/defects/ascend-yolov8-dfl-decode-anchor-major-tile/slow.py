"""YOLOv8 Detect decode (DFL + dist2bbox + class sigmoid) for triton-ascend: vector cores loop over
(image, anchor block) tiles; each anchor's 16 bins of a side form one row of an anchors x bins tile."""
import torch
import triton
import triton.language as tl

AIV_CORES = 40


@triton.jit
def _side_distance(side_ptr, anchor, A, a_mask, REG_MAX: tl.constexpr):
    bins = tl.arange(0, REG_MAX)
    logits = tl.load(side_ptr + anchor[:, None] + bins[None, :] * A, mask=a_mask[:, None], other=0.0)
    m = tl.max(logits, axis=1)
    e = tl.exp(logits - m[:, None])
    return tl.sum(e * bins[None, :].to(tl.float32), axis=1) / tl.sum(e, axis=1)


@triton.jit
def dfl_decode_kernel(pred_ptr, anc_ptr, stride_ptr, out_ptr, B, A, NC, blocks_per_image,
                      NUM_PROGRAMS: tl.constexpr, REG_MAX: tl.constexpr, BLOCK_A: tl.constexpr,
                      CLS_ROWS: tl.constexpr):
    pid = tl.program_id(0)
    C_IN = 4 * REG_MAX + NC
    C_OUT = 4 + NC
    for tile in range(pid, B * blocks_per_image, NUM_PROGRAMS):
        b = tile // blocks_per_image
        anchor = (tile - b * blocks_per_image) * BLOCK_A + tl.arange(0, BLOCK_A)
        a_mask = anchor < A
        src = pred_ptr + b * C_IN * A
        dst = out_ptr + b * C_OUT * A
        left = _side_distance(src, anchor, A, a_mask, REG_MAX)
        top = _side_distance(src + REG_MAX * A, anchor, A, a_mask, REG_MAX)
        right = _side_distance(src + 2 * REG_MAX * A, anchor, A, a_mask, REG_MAX)
        bottom = _side_distance(src + 3 * REG_MAX * A, anchor, A, a_mask, REG_MAX)
        ax = tl.load(anc_ptr + anchor, mask=a_mask, other=0.0)
        ay = tl.load(anc_ptr + A + anchor, mask=a_mask, other=0.0)
        stride = tl.load(stride_ptr + anchor, mask=a_mask, other=0.0)
        tl.store(dst + anchor, (ax + 0.5 * (right - left)) * stride, mask=a_mask)
        tl.store(dst + A + anchor, (ay + 0.5 * (bottom - top)) * stride, mask=a_mask)
        tl.store(dst + 2 * A + anchor, (left + right) * stride, mask=a_mask)
        tl.store(dst + 3 * A + anchor, (top + bottom) * stride, mask=a_mask)
        for c0 in range(0, NC, CLS_ROWS):
            rows = c0 + tl.arange(0, CLS_ROWS)
            m2 = (rows[:, None] < NC) & a_mask[None, :]
            x = tl.load(src + (4 * REG_MAX + rows[:, None]) * A + anchor[None, :], mask=m2, other=0.0)
            tl.store(dst + (4 + rows[:, None]) * A + anchor[None, :], tl.sigmoid(x), mask=m2)


def run(preds: torch.Tensor, anchors: torch.Tensor, strides: torch.Tensor) -> torch.Tensor:
    B, C, A = preds.shape
    reg_max = 16
    nc = C - 4 * reg_max
    out = torch.empty((B, 4 + nc, A), device=preds.device, dtype=preds.dtype)
    block_a = 256
    blocks_per_image = triton.cdiv(A, block_a)
    num_programs = min(AIV_CORES, B * blocks_per_image)
    launch = dict(NUM_PROGRAMS=num_programs, REG_MAX=reg_max, BLOCK_A=block_a, CLS_ROWS=16)
    dfl_decode_kernel[(num_programs,)](preds, anchors, strides, out, B, A, nc, blocks_per_image, **launch)
    return out
