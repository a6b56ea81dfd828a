"""Sampler penalties: one program per request, walking the whole vocabulary row."""
import torch
import triton
import triton.language as tl


@triton.jit
def penalties_kernel(logits_ptr, prompt_ptr, counts_ptr, rep_ptr, freq_ptr, pres_ptr, out_ptr, vocab,
                     BLOCK: tl.constexpr):
    req = tl.program_id(0)
    rep = tl.load(rep_ptr + req)
    freq = tl.load(freq_ptr + req)
    pres = tl.load(pres_ptr + req)
    row = req.to(tl.int64) * vocab
    for start in range(0, vocab, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        m = offs < vocab
        x = tl.load(logits_ptr + row + offs, mask=m, other=0.0)
        in_prompt = tl.load(prompt_ptr + row + offs, mask=m, other=0) != 0
        cnt = tl.load(counts_ptr + row + offs, mask=m, other=0)
        in_out = cnt > 0
        scaled = tl.where(x > 0, x / rep, x * rep)
        x = tl.where(in_prompt | in_out, scaled, x)
        x = x - freq * cnt.to(tl.float32) - pres * in_out.to(tl.float32)
        tl.store(out_ptr + row + offs, x, mask=m)


def run(logits, prompt_mask, output_counts, rep, freq, pres):
    B, V = logits.shape
    out = torch.empty_like(logits)
    penalties_kernel[(B,)](logits, prompt_mask, output_counts, rep, freq, pres, out, V, BLOCK=1024)
    return out
