"""Per-document UTF-8 character count and whitespace-delimited word count over a strings column."""
import torch
import triton
import triton.language as tl


@triton.jit
def _char_word_count_kernel(chars, offsets, n_chars, n_words, D, DOCS: tl.constexpr):
    doc = tl.program_id(0) * DOCS + tl.arange(0, DOCS)
    live = doc < D
    start = tl.load(offsets + doc, mask=live, other=0)
    length = tl.load(offsets + doc + 1, mask=live, other=0) - start
    cp = tl.zeros([DOCS], tl.int32)
    words = tl.zeros([DOCS], tl.int32)
    prev = tl.full([DOCS], 32, tl.int32)
    for k in range(0, tl.max(length, axis=0)):
        inside = k < length
        b = tl.load(chars + start + k, mask=inside, other=0).to(tl.int32)
        cp += (inside & ((b & 0xC0) != 0x80)).to(tl.int32)
        words += (inside & (b > 32) & (prev <= 32)).to(tl.int32)
        prev = b
    tl.store(n_chars + doc, cp, mask=live)
    tl.store(n_words + doc, words, mask=live)


def run(chars, offsets):
    D = offsets.numel() - 1
    n_chars = torch.empty(D, device=chars.device, dtype=torch.int32)
    n_words = torch.empty(D, device=chars.device, dtype=torch.int32)
    DOCS = 128
    _char_word_count_kernel[(triton.cdiv(D, DOCS),)](chars, offsets, n_chars, n_words, D, DOCS=DOCS, num_warps=4)
    return n_chars, n_words
