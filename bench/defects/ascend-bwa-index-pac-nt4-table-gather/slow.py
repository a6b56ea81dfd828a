"""bwa index .pac packing: FASTA text -> nst_nt4_table codes -> 4 bases per byte (first base high)."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_BLOCK = 4096  # int32 words (16,384 bases) per step
_NT4_TABLES = {}


def _nst_nt4_table(device) -> torch.Tensor:
    """BWA's nst_nt4_table: A/a 0, C/c 1, G/g 2, T/t 3, every other byte 4 (kept per device)."""
    key = str(device)
    if key not in _NT4_TABLES:
        table = torch.empty(256, dtype=torch.uint8, device=device)
        table[:] = 4
        for code, ch in enumerate(b"ACGT"):
            table[ch] = code
            table[ch + 32] = code
        _NT4_TABLES[key] = table
    return _NT4_TABLES[key]


@triton.jit
def _pac_pack(words, nt4, pac, n_words, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for blk in range(pid, tl.cdiv(n_words, BLOCK), nprog):
        offs = blk * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n_words
        w = tl.load(words + offs, mask=mask, other=0)
        # bytes 0..3 of a little-endian word are bases 4j..4j+3; ambiguous (4) packs as A
        c0 = tl.load(nt4 + (w & 0xFF), mask=mask, other=4).to(tl.int32) & 3
        c1 = tl.load(nt4 + ((w >> 8) & 0xFF), mask=mask, other=4).to(tl.int32) & 3
        c2 = tl.load(nt4 + ((w >> 16) & 0xFF), mask=mask, other=4).to(tl.int32) & 3
        c3 = tl.load(nt4 + ((w >> 24) & 0xFF), mask=mask, other=4).to(tl.int32) & 3
        packed = (c0 << 6) | (c1 << 4) | (c2 << 2) | c3
        tl.store(pac + offs, packed.to(tl.uint8), mask=mask)


def run(seq: torch.Tensor) -> torch.Tensor:
    n = seq.numel()
    assert n % 4 == 0, "contigs are padded with N to a multiple of 4 bases"
    words = seq.view(torch.int32)
    n_words = n // 4
    pac = torch.empty(n_words, device=seq.device, dtype=torch.uint8)
    grid = (min(_VECTOR_CORES, triton.cdiv(n_words, _BLOCK)),)
    _pac_pack[grid](words, _nst_nt4_table(seq.device), pac, n_words, BLOCK=_BLOCK)
    return pac
