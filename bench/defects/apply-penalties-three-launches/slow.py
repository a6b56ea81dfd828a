"""apply_penalties: one kernel per penalty, as the sampler applies them one after another."""
import torch
import triton
import triton.language as tl


@triton.jit
def repetition_penalty_kernel(logits_ptr, counts_ptr, prompt_mask_ptr, rep_ptr, out_ptr, V,
                              BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = cols < V
    offs = row * V + cols
    logits = tl.load(logits_ptr + offs, mask=mask, other=0.0)
    seen = (tl.load(counts_ptr + offs, mask=mask, other=0) > 0) | tl.load(prompt_mask_ptr + offs, mask=mask, other=0)
    penalty = tl.where(seen, tl.load(rep_ptr + row), 1.0)
    tl.store(out_ptr + offs, tl.where(logits > 0, logits / penalty, logits * penalty), mask=mask)


@triton.jit
def frequency_penalty_kernel(out_ptr, counts_ptr, freq_ptr, V, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = cols < V
    offs = row * V + cols
    counts = tl.load(counts_ptr + offs, mask=mask, other=0)
    logits = tl.load(out_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, logits - tl.load(freq_ptr + row) * counts, mask=mask)


@triton.jit
def presence_penalty_kernel(out_ptr, counts_ptr, pres_ptr, V, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = cols < V
    offs = row * V + cols
    present = tl.load(counts_ptr + offs, mask=mask, other=0) > 0
    logits = tl.load(out_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, logits - tl.where(present, tl.load(pres_ptr + row), 0.0), mask=mask)


def apply_repetition(logits, counts, prompt_mask, rep, out, block=4096):
    B, V = logits.shape
    repetition_penalty_kernel[(B, triton.cdiv(V, block))](logits, counts, prompt_mask, rep, out, V, BLOCK=block)


def apply_frequency(out, counts, freq, block=4096):
    B, V = out.shape
    frequency_penalty_kernel[(B, triton.cdiv(V, block))](out, counts, freq, V, BLOCK=block)


def apply_presence(out, counts, pres, block=4096):
    B, V = out.shape
    presence_penalty_kernel[(B, triton.cdiv(V, block))](out, counts, pres, V, BLOCK=block)


def run(logits, counts, prompt_mask, rep, freq, pres) -> torch.Tensor:
    out = torch.empty_like(logits)
    apply_repetition(logits, counts, prompt_mask, rep, out)
    apply_frequency(out, counts, freq)
    apply_presence(out, counts, pres)
    return out
