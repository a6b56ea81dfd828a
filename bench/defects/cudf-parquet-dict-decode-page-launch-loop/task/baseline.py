"""Parquet dictionary decode: unpack bit-packed INT64 dictionary indices page by page and gather the values."""
import torch
import triton
import triton.language as tl

BLOCK = 1024


@triton.jit
def _unpack_and_gather(words, dictionary, out, word_off, n, width, dict_off, out_off, j):
    valid = j < n
    bit = j * width
    w = word_off + (bit >> 5)
    lo = tl.load(words + w, mask=valid, other=0).to(tl.uint32, bitcast=True).to(tl.uint64)
    hi = tl.load(words + w + 1, mask=valid, other=0).to(tl.uint32, bitcast=True).to(tl.uint64)
    packed = lo | (hi << 32)
    ones = (tl.full([1], 1, tl.uint64) << width.to(tl.uint64)) - 1
    idx = ((packed >> (bit & 31).to(tl.uint64)) & ones).to(tl.int32)
    vals = tl.load(dictionary + dict_off + idx, mask=valid, other=0)
    tl.store(out + out_off + j, vals, mask=valid)


@triton.jit
def _decode_pages(words, pages, dictionary, out, BLOCK: tl.constexpr):
    page = tl.program_id(0)
    chunk = tl.program_id(1)
    hdr = pages + page * 5
    word_off = tl.load(hdr)
    n = tl.load(hdr + 1)
    width = tl.load(hdr + 2)
    dict_off = tl.load(hdr + 3)
    out_off = tl.load(hdr + 4)
    j = chunk * BLOCK + tl.arange(0, BLOCK)
    _unpack_and_gather(words, dictionary, out, word_off, n, width, dict_off, out_off, j)


def run(words: torch.Tensor, pages: torch.Tensor, dictionary: torch.Tensor) -> torch.Tensor:
    counts = [h[1] for h in pages.tolist()]
    total, longest = sum(counts), max(counts)
    out = torch.empty(total, device=dictionary.device, dtype=dictionary.dtype)
    grid = (pages.shape[0], triton.cdiv(longest, BLOCK))
    _decode_pages[grid](words, pages, dictionary, out, BLOCK=BLOCK, num_warps=4)
    return out
