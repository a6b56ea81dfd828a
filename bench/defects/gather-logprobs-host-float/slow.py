"""Token log-prob gather: the log-probs are brought to fp32 first, then one program per row gathers K entries."""
import torch
import triton
import triton.language as tl


@triton.jit
def to_float_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=mask).to(tl.float32), mask=mask)


@triton.jit
def gather_rows_kernel(src_ptr, idx_ptr, out_ptr, V, K, BLOCK_K: tl.constexpr):
    row = tl.program_id(0)
    j = tl.arange(0, BLOCK_K)
    m = j < K
    idx = tl.load(idx_ptr + row * K + j, mask=m, other=0)
    vals = tl.load(src_ptr + row.to(tl.int64) * V + idx, mask=m)
    tl.store(out_ptr + row * K + j, vals, mask=m)


def _as_float(x: torch.Tensor) -> torch.Tensor:
    """An fp32 copy of x (the gather works in fp32, like logprobs.float())."""
    y = torch.empty(x.shape, device=x.device, dtype=torch.float32)
    n = x.numel()
    to_float_kernel[(triton.cdiv(n, 4096),)](x, y, n, BLOCK=4096)
    return y


def run(logprobs: torch.Tensor, ids: torch.Tensor) -> torch.Tensor:
    B, V = logprobs.shape
    K = ids.shape[1]
    src = _as_float(logprobs)
    out = torch.empty((B, K), device=logprobs.device, dtype=torch.float32)
    gather_rows_kernel[(B,)](src, ids, out, V, K, BLOCK_K=triton.next_power_of_2(K), num_warps=1)
    return out
