"""Sampler penalties (vLLM v1 apply_penalties): a 2-D grid of (request, block of vocab ids) programs."""
import torch
import triton
import triton.language as tl


@triton.jit
def penalties_kernel(logits_ptr, prompt_ptr, counts_ptr, rep_ptr, freq_ptr, pres_ptr, out_ptr, vocab,
                     BLOCK: tl.constexpr):
    req = tl.program_id(0)
    blk = tl.program_id(1)
    rep = tl.load(rep_ptr + req)
    freq = tl.load(freq_ptr + req)
    pres = tl.load(pres_ptr + req)
    row = req.to(tl.int64) * vocab
    offs = blk * BLOCK + tl.arange(0, BLOCK)
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
    BLOCK = 1024
    penalties_kernel[(B, triton.cdiv(V, BLOCK))](logits, prompt_mask, output_counts, rep, freq, pres, out, V,
                                                 BLOCK=BLOCK)
    return out
