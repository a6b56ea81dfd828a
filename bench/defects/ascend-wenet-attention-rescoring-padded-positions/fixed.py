"""WeNet attention rescoring: decoder log-prob of each n-best hypothesis (+ eos) plus weighted CTC score."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _rescore(logits, hyps, hyp_lens, ctc_scores, out, H, L, V, eos, ctc_weight,
             s_lh, s_ll, s_yh, BV: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    cols = tl.arange(0, BV)
    cmask = cols < V
    for h in range(pid, H, nprog):
        n = tl.load(hyp_lens + h)
        score = 0.0
        for j in range(0, n + 1):
            row = logits + h * s_lh + j * s_ll
            x = tl.load(row + cols, mask=cmask, other=float("-inf"))
            m = tl.max(x, axis=0)
            lse = m + tl.log(tl.sum(tl.exp(x - m), axis=0))
            tok = tl.load(hyps + h * s_yh + j, mask=j < n, other=eos)
            logp = tl.load(row + tok) - lse
            score += tl.where(j <= n, logp, 0.0)
        c = tl.load(ctc_scores + h)
        tl.store(out + h, score + ctc_weight * c)


def run(logits: torch.Tensor, hyps: torch.Tensor, hyp_lens: torch.Tensor, ctc_scores: torch.Tensor,
        eos: int, ctc_weight: float) -> torch.Tensor:
    B, N, L, V = logits.shape
    out = torch.empty((B, N), device=logits.device, dtype=torch.float32)
    H = B * N
    grid = (min(_VECTOR_CORES, H),)
    _rescore[grid](logits, hyps, hyp_lens, ctc_scores, out, H, L, V, eos, ctc_weight,
                   logits.stride(1), logits.stride(2), hyps.stride(1), BV=triton.next_power_of_2(V))
    return out
