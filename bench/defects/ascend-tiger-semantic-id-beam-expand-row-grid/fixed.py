"""Semantic-ID beam expansion: beam score + log_softmax over the codebook + prefix-trie mask."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _beam_expand_fwd(logits, allowed, beam_score, out, R, C, stride_l, stride_a, stride_o,
                     BR: tl.constexpr, BC: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    cols = tl.arange(0, BC)
    cmask = cols < C
    for blk in range(pid, tl.cdiv(R, BR), nprog):
        rows = blk * BR + tl.arange(0, BR)
        rmask = rows < R
        mask = rmask[:, None] & cmask[None, :]
        x = tl.load(logits + rows[:, None] * stride_l + cols[None, :], mask=mask, other=-float("inf"))
        m = tl.max(x, axis=1)
        e = tl.exp(x - m[:, None])
        lse = m + tl.log(tl.sum(e, axis=1))
        s = tl.load(beam_score + rows, mask=rmask, other=0.0)
        a = tl.load(allowed + rows[:, None] * stride_a + cols[None, :], mask=mask, other=0.0)
        y = x - (lse - s)[:, None] + a
        tl.store(out + rows[:, None] * stride_o + cols[None, :], y, mask=mask)


def run(logits: torch.Tensor, beam_score: torch.Tensor, allowed: torch.Tensor) -> torch.Tensor:
    R, C = logits.shape
    out = torch.empty((R, C), device=logits.device, dtype=logits.dtype)
    BC = triton.next_power_of_2(C)
    BR = max(1, 4096 // BC)
    grid = (min(_VECTOR_CORES, triton.cdiv(R, BR)),)
    _beam_expand_fwd[grid](logits, allowed, beam_score, out, R, C,
                           logits.stride(0), allowed.stride(0), out.stride(0), BR=BR, BC=BC)
    return out
