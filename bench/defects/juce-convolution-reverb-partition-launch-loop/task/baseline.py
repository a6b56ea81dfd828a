"""Partitioned convolution reverb: complex multiply-accumulate of the delay line with the IR partitions."""
import torch
import triton
import triton.language as tl


@triton.jit
def _partitioned_mac(fdl, ir, out, head, P, stride_c, stride_slot, stride_p, K,
                     BLOCK_P: tl.constexpr, BLOCK_K: tl.constexpr):
    c = tl.program_id(0)
    k = tl.program_id(1) * BLOCK_K + tl.arange(0, BLOCK_K)
    k_mask = k < K
    acc_r = tl.zeros((BLOCK_P, BLOCK_K), dtype=tl.float32)
    acc_i = tl.zeros((BLOCK_P, BLOCK_K), dtype=tl.float32)
    row = fdl + c * stride_c
    for p0 in range(0, P, BLOCK_P):
        p = p0 + tl.arange(0, BLOCK_P)
        slot = (head - p + P) % P
        mask = (p < P)[:, None] & k_mask[None, :]
        x_ptr = row + slot[:, None] * stride_slot + 2 * k[None, :]
        h_ptr = ir + p[:, None] * stride_p + 2 * k[None, :]
        xr = tl.load(x_ptr, mask=mask, other=0.0)
        xi = tl.load(x_ptr + 1, mask=mask, other=0.0)
        hr = tl.load(h_ptr, mask=mask, other=0.0)
        hi = tl.load(h_ptr + 1, mask=mask, other=0.0)
        acc_r += xr * hr - xi * hi
        acc_i += xr * hi + xi * hr
    y_ptr = out + c * (2 * K) + 2 * k
    tl.store(y_ptr, tl.sum(acc_r, axis=0), mask=k_mask)
    tl.store(y_ptr + 1, tl.sum(acc_i, axis=0), mask=k_mask)


def run(fdl: torch.Tensor, ir: torch.Tensor, head: int) -> torch.Tensor:
    C, P, K, _ = fdl.shape
    fdl = fdl.contiguous()
    ir = ir.contiguous()
    out = torch.empty(C, K, 2, device=fdl.device, dtype=torch.float32)
    BLOCK_K = 64
    BLOCK_P = 8
    grid = (C, triton.cdiv(K, BLOCK_K))
    _partitioned_mac[grid](fdl, ir, out, head, P, fdl.stride(0), fdl.stride(1), ir.stride(0), K,
                           BLOCK_P=BLOCK_P, BLOCK_K=BLOCK_K, num_warps=4)
    return out
