"""Beam-search step scores with the row-kernel template: each beam's whole vocabulary row in one block."""
import torch
import triton
import triton.language as tl


@triton.jit
def beam_logsoftmax_kernel(logits_ptr, beam_scores_ptr, out_ptr, V, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < V
    x = tl.load(logits_ptr + row * stride + cols, mask=mask, other=float("-inf"))
    row_max = tl.max(x, axis=0)
    e = tl.exp(x - row_max)
    lse = row_max + tl.log(tl.sum(e, axis=0))
    score = tl.load(beam_scores_ptr + row)
    tl.store(out_ptr + row * stride + cols, x - lse + score, mask=mask)


def _launch_config(n_cols: int) -> tuple[int, int]:
    block = triton.next_power_of_2(n_cols)
    if block >= 32768:
        num_warps = 32
    elif block >= 8192:
        num_warps = 16
    elif block >= 2048:
        num_warps = 8
    else:
        num_warps = 4
    return block, num_warps


class BeamScorer:
    """Scores the candidates of one decoding step for every live beam."""

    def __init__(self, vocab_size: int):
        self.vocab_size = vocab_size
        self.block, self.num_warps = _launch_config(vocab_size)

    def step(self, logits: torch.Tensor, beam_scores: torch.Tensor) -> torch.Tensor:
        rows = logits.shape[0]
        out = torch.empty_like(logits)
        beam_logsoftmax_kernel[(rows,)](logits, beam_scores, out, self.vocab_size, logits.stride(0),
                                        BLOCK=self.block, num_warps=self.num_warps)
        return out


def run(logits: torch.Tensor, beam_scores: torch.Tensor) -> torch.Tensor:
    return BeamScorer(logits.shape[1]).step(logits, beam_scores)
