"""apply_penalties: the three penalties applied in one pass over the logits."""
import torch
import triton
import triton.language as tl


@triton.jit
def apply_penalties_kernel(logits_ptr, counts_ptr, prompt_mask_ptr, rep_ptr, freq_ptr, pres_ptr, out_ptr, V,
                           BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = cols < V
    offs = row * V + cols
    logits = tl.load(logits_ptr + offs, mask=mask, other=0.0)
    counts = tl.load(counts_ptr + offs, mask=mask, other=0)
    present = counts > 0
    seen = present | tl.load(prompt_mask_ptr + offs, mask=mask, other=0)
    penalty = tl.where(seen, tl.load(rep_ptr + row), 1.0)
    out = tl.where(logits > 0, logits / penalty, logits * penalty)
    out = out - tl.load(freq_ptr + row) * counts
    out = out - tl.where(present, tl.load(pres_ptr + row), 0.0)
    tl.store(out_ptr + offs, out, mask=mask)


def run(logits, counts, prompt_mask, rep, freq, pres) -> torch.Tensor:
    B, V = logits.shape
    out = torch.empty_like(logits)
    apply_penalties_kernel[(B, triton.cdiv(V, 4096))](logits, counts, prompt_mask, rep, freq, pres, out, V,
                                                      BLOCK=4096)
    return out
