# backend: cuda
import torch
import triton
import triton.language as tl


@triton.jit
def count_spaces(chars, offsets, out, D, DOCS: tl.constexpr):
    doc = tl.program_id(0) * DOCS + tl.arange(0, DOCS)
    live = doc < D
    start = tl.load(offsets + doc, mask=live, other=0)
    length = tl.load(offsets + doc + 1, mask=live, other=0) - start
    n = tl.zeros([DOCS], tl.int32)
    for k in range(0, tl.max(length, axis=0)):
        b = tl.load(chars + start + k, mask=k < length, other=0)  # expect: cuda-strided-fast-axis
        n += (b == 32).to(tl.int32)
    tl.store(out + doc, n, mask=live)


def run(chars, offsets):
    out = torch.empty(offsets.numel() - 1, dtype=torch.int32, device=chars.device)
    count_spaces[(triton.cdiv(out.numel(), 128),)](chars, offsets, out, out.numel(), DOCS=128)
    return out
