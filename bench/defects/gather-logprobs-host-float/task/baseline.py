"""Baseline: token log-prob gather, one program per row gathers K bf16 entries and casts them to fp32 in registers."""
import torch
import triton
import triton.language as tl


@triton.jit
def gather_rows_kernel(src_ptr, idx_ptr, out_ptr, V, K, BLOCK_K: tl.constexpr):
    row = tl.program_id(0)
    j = tl.arange(0, BLOCK_K)
    m = j < K
    idx = tl.load(idx_ptr + row * K + j, mask=m, other=0)
    vals = tl.load(src_ptr + row.to(tl.int64) * V + idx, mask=m)
    tl.store(out_ptr + row * K + j, vals.to(tl.float32), mask=m)


def run(logprobs: torch.Tensor, ids: torch.Tensor) -> torch.Tensor:
    B, V = logprobs.shape
    K = ids.shape[1]
    out = torch.empty((B, K), device=logprobs.device, dtype=torch.float32)
    gather_rows_kernel[(B,)](logprobs, ids, out, V, K, BLOCK_K=triton.next_power_of_2(K), num_warps=1)
    return out
