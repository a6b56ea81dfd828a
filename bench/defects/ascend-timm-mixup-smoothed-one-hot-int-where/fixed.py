"""timm mixup_target: smoothed one-hot of the labels mixed with that of the batch-flipped labels."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40


@triton.jit
def _mixup_target(labels, out, lam, off, on, B, C, stride_out, BLOCK_C: tl.constexpr):
    pid = tl.program_id(0)
    n_prog = tl.num_programs(0)
    span = tl.arange(0, BLOCK_C)
    for row in range(pid, B, n_prog):
        y1 = tl.load(labels + row).to(tl.float32)
        y2 = tl.load(labels + B - 1 - row).to(tl.float32)
        out_row = out + row * stride_out
        for c0 in range(0, C, BLOCK_C):
            cols = c0 + span
            col_f = cols.to(tl.float32)
            a = tl.where(col_f == y1, on, off)
            b = tl.where(col_f == y2, on, off)
            tl.store(out_row + cols, a * lam + b * (1.0 - lam), mask=cols < C)


def run(labels: torch.Tensor, lam: float, smoothing: float, num_classes: int) -> torch.Tensor:
    B = labels.shape[0]
    out = torch.empty((B, num_classes), device=labels.device, dtype=torch.float32)
    off = smoothing / num_classes
    on = 1.0 - smoothing + off
    block_c = min(2048, triton.next_power_of_2(num_classes))
    grid = (min(B, NUM_VECTOR_CORES),)
    _mixup_target[grid](labels, out, lam, off, on, B, num_classes, out.stride(0), BLOCK_C=block_c)
    return out
