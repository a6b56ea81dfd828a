"""Hamming scan of binary codes: persistent programs over blocks of codes, popcount word by word."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40


@triton.jit
def _popcount32(v):
    v = v - ((v >> 1) & 0x55555555)
    v = (v & 0x33333333) + ((v >> 2) & 0x33333333)
    v = (v + (v >> 4)) & 0x0F0F0F0F
    return (v * 0x01010101) >> 24


@triton.jit
def _hamming_scan(query, codes, out, n, WORDS: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for blk in range(pid, tl.cdiv(n, BLOCK), nprog):
        rows = blk * BLOCK + tl.arange(0, BLOCK)
        valid = rows < n
        dist = tl.zeros([BLOCK], dtype=tl.int32)
        for w in range(WORDS):
            word = tl.load(codes + rows * WORDS + w, mask=valid, other=0)
            dist += _popcount32(word ^ tl.load(query + w))
        tl.store(out + rows, dist, mask=valid)


def run(query: torch.Tensor, codes: torch.Tensor) -> torch.Tensor:
    n, words = codes.shape
    out = torch.empty(n, device=codes.device, dtype=torch.int32)
    BLOCK = 1024
    grid = (min(NUM_VECTOR_CORES, triton.cdiv(n, BLOCK)),)
    _hamming_scan[grid](query, codes, out, n, WORDS=words, BLOCK=BLOCK)
    return out
