"""Beam-search step scores: each beam row streamed in 4096-column chunks, an online max / sum-exp pass,
then the write pass."""
import torch
import triton
import triton.language as tl


@triton.jit
def beam_logsoftmax_kernel(logits_ptr, beam_scores_ptr, out_ptr, V, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = row * stride
    cols = tl.arange(0, BLOCK)
    m = tl.full((), float("-inf"), tl.float32)
    s = tl.zeros((), dtype=tl.float32)
    for start in range(0, V, BLOCK):
        offs = start + cols
        x = tl.load(logits_ptr + base + offs, mask=offs < V, other=float("-inf"))
        new_m = tl.maximum(m, tl.max(x, axis=0))
        s = s * tl.exp(m - new_m) + tl.sum(tl.exp(x - new_m), axis=0)
        m = new_m
    lse = m + tl.log(s)
    score = tl.load(beam_scores_ptr + row)
    for start in range(0, V, BLOCK):
        offs = start + cols
        mask = offs < V
        x = tl.load(logits_ptr + base + offs, mask=mask, other=0.0)
        tl.store(out_ptr + base + offs, x - lse + score, mask=mask)


class BeamScorer:
    """Scores the candidates of one decoding step for every live beam."""

    def __init__(self, vocab_size: int):
        self.vocab_size = vocab_size
        self.block = min(4096, triton.next_power_of_2(vocab_size))

    def step(self, logits: torch.Tensor, beam_scores: torch.Tensor) -> torch.Tensor:
        rows = logits.shape[0]
        out = torch.empty_like(logits)
        beam_logsoftmax_kernel[(rows,)](logits, beam_scores, out, self.vocab_size, logits.stride(0),
                                        BLOCK=self.block, num_warps=8)
        return out


def run(logits: torch.Tensor, beam_scores: torch.Tensor) -> torch.Tensor:
    return BeamScorer(logits.shape[1]).step(logits, beam_scores)
