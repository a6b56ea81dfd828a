"""bwa index .pac packing: FASTA text -> nst_nt4_table codes -> 4 bases per byte (first base high)."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_BLOCK = 4096  # int32 words (16,384 bases) per step


@triton.jit
def _nst_nt4(b):
    """BWA's nst_nt4_table on the vector unit: A/a 0, C/c 1, G/g 2, T/t 3, every other byte 4.

    Upper case is folded onto lower case; compare and select run in fp32, the A2's vector form."""
    x = (b | 0x20).to(tl.float32)
    return tl.where(x == 97.0, 0.0, tl.where(x == 99.0, 1.0, tl.where(x == 103.0, 2.0,
                                                                         tl.where(x == 116.0, 3.0, 4.0))))


@triton.jit
def _pac_pack(words, pac, n_words, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for blk in range(pid, tl.cdiv(n_words, BLOCK), nprog):
        offs = blk * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n_words
        w = tl.load(words + offs, mask=mask, other=0)
        # bytes 0..3 of a little-endian word are bases 4j..4j+3; ambiguous (4) packs as A
        c0 = _nst_nt4(w & 0xFF).to(tl.int32) & 3
        c1 = _nst_nt4((w >> 8) & 0xFF).to(tl.int32) & 3
        c2 = _nst_nt4((w >> 16) & 0xFF).to(tl.int32) & 3
        c3 = _nst_nt4((w >> 24) & 0xFF).to(tl.int32) & 3
        packed = (c0 << 6) | (c1 << 4) | (c2 << 2) | c3
        tl.store(pac + offs, packed.to(tl.uint8), mask=mask)


def run(seq: torch.Tensor) -> torch.Tensor:
    n = seq.numel()
    assert n % 4 == 0, "contigs are padded with N to a multiple of 4 bases"
    words = seq.view(torch.int32)
    n_words = n // 4
    pac = torch.empty(n_words, device=seq.device, dtype=torch.uint8)
    grid = (min(_VECTOR_CORES, triton.cdiv(n_words, _BLOCK)),)
    _pac_pack[grid](words, pac, n_words, BLOCK=_BLOCK)
    return pac
