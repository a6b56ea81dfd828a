"""Byte-level character-class fractions per document (RedPajama-V2 / Dolma quality signals)."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _char_class_fractions(text, lengths, out, D, stride_t, stride_o, BL: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    cols = tl.arange(0, BL)
    for doc in range(pid, D, nprog):
        row = text + doc * stride_t
        n = tl.load(lengths + doc)
        n_alpha = 0.0
        n_upper = 0.0
        n_digit = 0.0
        n_space = 0.0
        n_curly = 0.0
        n_high = 0.0
        for start in range(0, n, BL):
            offs = start + cols
            c = tl.load(row + offs, mask=offs < n, other=0).to(tl.float32)
            upper = (c >= 65.0) & (c <= 90.0)
            lower = (c >= 97.0) & (c <= 122.0)
            digit = (c >= 48.0) & (c <= 57.0)
            space = ((c >= 9.0) & (c <= 13.0)) | (c == 32.0)
            curly = (c == 123.0) | (c == 125.0)
            high = c >= 128.0
            n_alpha += tl.sum((upper | lower).to(tl.float32), axis=0)
            n_upper += tl.sum(upper.to(tl.float32), axis=0)
            n_digit += tl.sum(digit.to(tl.float32), axis=0)
            n_space += tl.sum(space.to(tl.float32), axis=0)
            n_curly += tl.sum(curly.to(tl.float32), axis=0)
            n_high += tl.sum(high.to(tl.float32), axis=0)
        nf = n.to(tl.float32)
        o = out + doc * stride_o
        tl.store(o + 0, n_alpha / nf)
        tl.store(o + 1, n_upper / nf)
        tl.store(o + 2, n_digit / nf)
        tl.store(o + 3, n_space / nf)
        tl.store(o + 4, n_curly / nf)
        tl.store(o + 5, n_high / nf)


def run(text: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
    D = text.shape[0]
    out = torch.empty((D, 6), device=text.device, dtype=torch.float32)
    grid = (min(_VECTOR_CORES, D),)
    _char_class_fractions[grid](text, lengths, out, D, text.stride(0), out.stride(0), BL=4096)
    return out
