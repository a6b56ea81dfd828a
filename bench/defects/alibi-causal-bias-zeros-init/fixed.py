"""Causal ALiBi bias: one program per (head * query row, key block), written into an uninitialised (torch.empty) tensor."""
import torch
import triton
import triton.language as tl


@triton.jit
def alibi_causal_kernel(slopes_ptr, out_ptr, S, BLOCK: tl.constexpr):
    hi = tl.program_id(0)
    h = hi // S
    i = hi % S
    j = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    slope = tl.load(slopes_ptr + h)
    bias = tl.where(j <= i, slope * (j - i).to(tl.float32), float("-inf"))
    tl.store(out_ptr + hi * S + j, bias, mask=j < S)


def run(slopes: torch.Tensor, seq_len: int) -> torch.Tensor:
    H = slopes.shape[0]
    out = torch.empty((H, seq_len, seq_len), dtype=torch.float32, device=slopes.device)
    alibi_causal_kernel[(H * seq_len, triton.cdiv(seq_len, 1024))](slopes, out, seq_len, BLOCK=1024)
    return out
