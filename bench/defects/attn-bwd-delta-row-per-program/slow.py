"""delta = rowsum(O * dO) for the flash-attention backward: one program per (query row, batch * head)."""
import torch
import triton
import triton.language as tl


@triton.jit
def bwd_preprocess_kernel(o_ptr, do_ptr, delta_ptr, H, S, stride_ob, stride_os, stride_oh,
                          D, BLOCK_D: tl.constexpr):
    m = tl.program_id(0)
    bh = tl.program_id(1)
    b = bh // H
    h = bh % H
    d = tl.arange(0, BLOCK_D)
    base = b * stride_ob + m * stride_os + h * stride_oh
    o = tl.load(o_ptr + base + d, mask=d < D, other=0.0).to(tl.float32)
    do = tl.load(do_ptr + base + d, mask=d < D, other=0.0).to(tl.float32)
    tl.store(delta_ptr + bh * S + m, tl.sum(o * do, axis=0))


def run(o: torch.Tensor, do: torch.Tensor) -> torch.Tensor:
    B, S, H, D = o.shape
    delta = torch.empty((B, H, S), dtype=torch.float32, device=o.device)
    BLOCK_D = triton.next_power_of_2(D)
    bwd_preprocess_kernel[(S, B * H)](o, do, delta, H, S, o.stride(0), o.stride(1), o.stride(2),
                                      D, BLOCK_D=BLOCK_D)
    return delta
