"""Baseline for the local chunk_local_cumsum task: [64, H] blocks of all heads, scanned along time."""
import torch
import triton
import triton.language as tl


@triton.jit
def chunk_cumsum_kernel(g_ptr, o_ptr, T, H: tl.constexpr, BT: tl.constexpr, BH: tl.constexpr):
    i_t = tl.program_id(0)
    b = tl.program_id(1)
    t = i_t * BT + tl.arange(0, BT)
    heads = tl.arange(0, BH)
    offs = b * T * H + t[:, None] * H + heads[None, :]
    mask = (t[:, None] < T) & (heads[None, :] < H)
    s = tl.load(g_ptr + offs, mask=mask, other=0.0)
    tl.store(o_ptr + offs, tl.cumsum(s, axis=0), mask=mask)


def run(g: torch.Tensor) -> torch.Tensor:
    B, T, H = g.shape
    out = torch.empty_like(g)
    BT = 64
    chunk_cumsum_kernel[(triton.cdiv(T, BT), B)](g, out, T, H=H, BT=BT, BH=triton.next_power_of_2(H))
    return out
