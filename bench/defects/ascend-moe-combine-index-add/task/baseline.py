"""Baseline for the local moe_combine task: per-token gather of its K rows, summed on chip."""
import torch
import triton
import triton.language as tl


@triton.jit
def combine_kernel(expert_out_ptr, weights_ptr, src_to_row_ptr, out_ptr, D,
                   K: tl.constexpr, BLOCK_D: tl.constexpr):
    t = tl.program_id(0)
    cols = tl.arange(0, BLOCK_D)
    cmask = cols < D
    acc = tl.zeros([BLOCK_D], dtype=tl.float32)
    for k in range(K):
        r = tl.load(src_to_row_ptr + t * K + k)
        w = tl.load(weights_ptr + t * K + k)
        x = tl.load(expert_out_ptr + r * D + cols, mask=cmask, other=0.0)
        acc += x.to(tl.float32) * w
    tl.store(out_ptr + t * D + cols, acc.to(out_ptr.dtype.element_ty), mask=cmask)


def run(expert_out, weights, sorted_ids, src_to_row) -> torch.Tensor:
    T, K = weights.shape
    D = expert_out.shape[1]
    out = torch.empty(T, D, dtype=expert_out.dtype, device=expert_out.device)
    combine_kernel[(T,)](expert_out, weights, src_to_row, out, D, K=K,
                         BLOCK_D=triton.next_power_of_2(D))
    return out
