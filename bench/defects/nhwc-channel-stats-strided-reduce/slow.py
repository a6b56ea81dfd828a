"""GroupNorm statistics (sum and sum of squares per (sample, group)), written for any memory format through
the tensor's strides: each program walks its group channel by channel, each channel over all pixels."""
import torch
import triton
import triton.language as tl


@triton.jit
def group_norm_stats_kernel(x_ptr, mean_ptr, rstd_ptr, HW, stride_n, stride_c, stride_hw, G, eps,
                            CPG: tl.constexpr, BLOCK_HW: tl.constexpr):
    n = tl.program_id(0)
    g = tl.program_id(1)
    base = x_ptr + n.to(tl.int64) * stride_n + g * CPG * stride_c
    acc = tl.zeros((BLOCK_HW,), dtype=tl.float32)
    acc_sq = tl.zeros((BLOCK_HW,), dtype=tl.float32)
    for c in range(CPG):
        for start in range(0, HW, BLOCK_HW):
            hw = start + tl.arange(0, BLOCK_HW)
            x = tl.load(base + c * stride_c + hw * stride_hw, mask=hw < HW, other=0.0).to(tl.float32)
            acc += x
            acc_sq += x * x
    count = CPG * HW
    mean = tl.sum(acc, axis=0) / count
    var = tl.maximum(tl.sum(acc_sq, axis=0) / count - mean * mean, 0.0)
    tl.store(mean_ptr + n * G + g, mean)
    tl.store(rstd_ptr + n * G + g, 1.0 / tl.sqrt(var + eps))


def run(x: torch.Tensor, num_groups: int, eps: float) -> tuple:
    N, C, H, W = x.shape
    mean = torch.empty((N, num_groups), dtype=torch.float32, device=x.device)
    rstd = torch.empty_like(mean)
    stride_n, stride_c, _, stride_w = x.stride()   # NCHW: (CHW, HW, W, 1); channels_last: (HWC, 1, WC, C)
    group_norm_stats_kernel[(N, num_groups)](x, mean, rstd, H * W, stride_n, stride_c, stride_w, num_groups, eps,
                                             CPG=C // num_groups, BLOCK_HW=1024, num_warps=8)
    return mean, rstd
