"""Per-document UTF-8 character count and whitespace-delimited word count over a strings column."""
import torch
import triton
import triton.language as tl


@triton.jit
def _char_word_count_kernel(chars, offsets, n_chars, n_words, BLOCK: tl.constexpr):
    doc = tl.program_id(0)
    start = tl.load(offsets + doc)
    end = tl.load(offsets + doc + 1)
    cp = tl.zeros([BLOCK], tl.int32)
    words = tl.zeros([BLOCK], tl.int32)
    for s0 in range(start, end, BLOCK):
        pos = s0 + tl.arange(0, BLOCK)
        inside = pos < end
        b = tl.load(chars + pos, mask=inside, other=0).to(tl.int32)
        prev = tl.load(chars + pos - 1, mask=inside & (pos > start), other=32).to(tl.int32)
        cp += (inside & ((b & 0xC0) != 0x80)).to(tl.int32)
        words += (inside & (b > 32) & (prev <= 32)).to(tl.int32)
    tl.store(n_chars + doc, tl.sum(cp, axis=0))
    tl.store(n_words + doc, tl.sum(words, axis=0))


def run(chars, offsets):
    D = offsets.numel() - 1
    n_chars = torch.empty(D, device=chars.device, dtype=torch.int32)
    n_words = torch.empty(D, device=chars.device, dtype=torch.int32)
    _char_word_count_kernel[(D,)](chars, offsets, n_chars, n_words, BLOCK=2048, num_warps=4)
    return n_chars, n_words
