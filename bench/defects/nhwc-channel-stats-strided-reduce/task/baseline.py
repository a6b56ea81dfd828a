"""GroupNorm statistics on a channels_last (NHWC) activation: each program reads [pixels, channels-of-group]
tiles whose channel axis is the contiguous one, and reduces both axes in fp32."""
import torch
import triton
import triton.language as tl


@triton.jit
def group_norm_stats_nhwc_kernel(x_ptr, mean_ptr, rstd_ptr, HW, C, G, eps,
                                 CPG: tl.constexpr, BLOCK_C: tl.constexpr, BLOCK_HW: tl.constexpr):
    n = tl.program_id(0)
    g = tl.program_id(1)
    base = x_ptr + n.to(tl.int64) * HW * C + g * CPG
    ch = tl.arange(0, BLOCK_C)
    c_mask = ch < CPG
    acc = tl.zeros((BLOCK_HW, BLOCK_C), dtype=tl.float32)
    acc_sq = tl.zeros((BLOCK_HW, BLOCK_C), dtype=tl.float32)
    for start in range(0, HW, BLOCK_HW):
        hw = start + tl.arange(0, BLOCK_HW)
        mask = (hw < HW)[:, None] & c_mask[None, :]
        x = tl.load(base + hw[:, None] * C + ch[None, :], mask=mask, other=0.0).to(tl.float32)
        acc += x
        acc_sq += x * x
    count = CPG * HW
    mean = tl.sum(tl.sum(acc, axis=1), axis=0) / count
    var = tl.maximum(tl.sum(tl.sum(acc_sq, axis=1), axis=0) / count - mean * mean, 0.0)
    tl.store(mean_ptr + n * G + g, mean)
    tl.store(rstd_ptr + n * G + g, 1.0 / tl.sqrt(var + eps))


def run(x: torch.Tensor, num_groups: int, eps: float) -> tuple:
    N, C, H, W = x.shape
    assert x.is_contiguous(memory_format=torch.channels_last)
    mean = torch.empty((N, num_groups), dtype=torch.float32, device=x.device)
    rstd = torch.empty_like(mean)
    cpg = C // num_groups
    BLOCK_C = triton.next_power_of_2(cpg)
    group_norm_stats_nhwc_kernel[(N, num_groups)](x, mean, rstd, H * W, C, num_groups, eps, CPG=cpg,
                                                  BLOCK_C=BLOCK_C, BLOCK_HW=8192 // BLOCK_C, num_warps=8)
    return mean, rstd
