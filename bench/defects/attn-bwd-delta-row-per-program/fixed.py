"""delta = rowsum(O * dO) for the flash-attention backward: each program reduces a 128-row block of one (batch, head)."""
import torch
import triton
import triton.language as tl


@triton.jit
def bwd_preprocess_kernel(o_ptr, do_ptr, delta_ptr, H, S, stride_ob, stride_os, stride_oh,
                          D, BLOCK_M: tl.constexpr, BLOCK_D: tl.constexpr):
    pid_m = tl.program_id(0)
    bh = tl.program_id(1)
    b = bh // H
    h = bh % H
    m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    d = tl.arange(0, BLOCK_D)
    mask = (m < S)[:, None] & (d < D)[None, :]
    offs = b * stride_ob + m[:, None] * stride_os + h * stride_oh + d[None, :]
    o = tl.load(o_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    do = tl.load(do_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    tl.store(delta_ptr + bh * S + m, tl.sum(o * do, axis=1), mask=m < S)


def run(o: torch.Tensor, do: torch.Tensor) -> torch.Tensor:
    B, S, H, D = o.shape
    delta = torch.empty((B, H, S), dtype=torch.float32, device=o.device)
    BLOCK_M = 128
    BLOCK_D = triton.next_power_of_2(D)
    bwd_preprocess_kernel[(triton.cdiv(S, BLOCK_M), B * H)](o, do, delta, H, S, o.stride(0), o.stride(1),
                                                            o.stride(2), D, BLOCK_M=BLOCK_M, BLOCK_D=BLOCK_D,
                                                            num_warps=8)
    return delta
