"""Semantic-ID beam expansion: beam score + log_softmax over the codebook + prefix-trie mask."""
import torch
import triton
import triton.language as tl


@triton.jit
def _beam_expand_fwd(logits, allowed, beam_score, out, C, stride_l, stride_a, stride_o,
                     BC: tl.constexpr):
    r = tl.program_id(0)
    cols = tl.arange(0, BC)
    cmask = cols < C
    x = tl.load(logits + r * stride_l + cols, mask=cmask, other=-float("inf"))
    m = tl.max(x, axis=0)
    e = tl.exp(x - m)
    lse = m + tl.log(tl.sum(e, axis=0))
    s = tl.load(beam_score + r)
    a = tl.load(allowed + r * stride_a + cols, mask=cmask, other=0.0)
    y = x - (lse - s) + a
    tl.store(out + r * stride_o + cols, y, mask=cmask)


def run(logits: torch.Tensor, beam_score: torch.Tensor, allowed: torch.Tensor) -> torch.Tensor:
    R, C = logits.shape
    out = torch.empty((R, C), device=logits.device, dtype=logits.dtype)
    BC = triton.next_power_of_2(C)
    _beam_expand_fwd[(R,)](logits, allowed, beam_score, out, C,
                           logits.stride(0), allowed.stride(0), out.stride(0), BC=BC)
    return out
