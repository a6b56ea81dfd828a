"""Partitioned convolution reverb: complex multiply-accumulate of the delay line with the IR partitions."""
import torch
import triton
import triton.language as tl


@triton.jit
def _partition_mac(fdl, ir, out, slot, p, stride_c, stride_slot, stride_p, K,
                   ACCUMULATE: tl.constexpr, BLOCK_K: tl.constexpr):
    c = tl.program_id(0)
    k = tl.program_id(1) * BLOCK_K + tl.arange(0, BLOCK_K)
    mask = k < K
    x_ptr = fdl + c * stride_c + slot * stride_slot + 2 * k
    h_ptr = ir + p * stride_p + 2 * k
    xr = tl.load(x_ptr, mask=mask, other=0.0)
    xi = tl.load(x_ptr + 1, mask=mask, other=0.0)
    hr = tl.load(h_ptr, mask=mask, other=0.0)
    hi = tl.load(h_ptr + 1, mask=mask, other=0.0)
    yr = xr * hr - xi * hi
    yi = xr * hi + xi * hr
    y_ptr = out + c * (2 * K) + 2 * k
    if ACCUMULATE:
        yr += tl.load(y_ptr, mask=mask, other=0.0)
        yi += tl.load(y_ptr + 1, mask=mask, other=0.0)
    tl.store(y_ptr, yr, mask=mask)
    tl.store(y_ptr + 1, yi, mask=mask)


def run(fdl: torch.Tensor, ir: torch.Tensor, head: int) -> torch.Tensor:
    C, P, K, _ = fdl.shape
    fdl = fdl.contiguous()
    ir = ir.contiguous()
    out = torch.empty(C, K, 2, device=fdl.device, dtype=torch.float32)
    BLOCK_K = 64
    grid = (C, triton.cdiv(K, BLOCK_K))
    for p in range(P):
        slot = (head - p) % P
        _partition_mac[grid](fdl, ir, out, slot, p, fdl.stride(0), fdl.stride(1), ir.stride(0), K,
                             ACCUMULATE=p > 0, BLOCK_K=BLOCK_K, num_warps=2)
    return out
