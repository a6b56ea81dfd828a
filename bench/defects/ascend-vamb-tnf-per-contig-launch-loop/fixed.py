"""Tetranucleotide frequencies per contig (VAMB / MetaBAT2 composition): 256 4-mer counts / total."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_BLOCK = 64  # 4-mer start positions per step: the one-hot tile is [256, 64] fp32 = 64 KB of UB


@triton.jit
def _acgt_code(b):
    """A/a 0, C/c 1, G/g 2, T/t 3, any other byte 4 (fp32 compares and selects on the vector unit)."""
    x = (b.to(tl.int32) | 0x20).to(tl.float32)
    return tl.where(x == 97.0, 0.0, tl.where(x == 99.0, 1.0, tl.where(x == 103.0, 2.0,
                                                                         tl.where(x == 116.0, 3.0, 4.0))))


@triton.jit
def _tnf(seq, offsets, freq, n_contigs, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    bins = tl.arange(0, 256).to(tl.float32)
    pos = tl.arange(0, BLOCK)
    for c in range(pid, n_contigs, nprog):
        beg = tl.load(offsets + c)
        end = tl.load(offsets + c + 1)
        counts = tl.zeros([256], dtype=tl.float32)
        for start in range(beg, end - 3, BLOCK):
            p = start + pos
            c0 = _acgt_code(tl.load(seq + p, mask=p < end, other=78))
            c1 = _acgt_code(tl.load(seq + p + 1, mask=p + 1 < end, other=78))
            c2 = _acgt_code(tl.load(seq + p + 2, mask=p + 2 < end, other=78))
            c3 = _acgt_code(tl.load(seq + p + 3, mask=p + 3 < end, other=78))
            ok = tl.maximum(tl.maximum(c0, c1), tl.maximum(c2, c3)) < 3.5
            kidx = tl.where(ok, c0 * 64.0 + c1 * 16.0 + c2 * 4.0 + c3, -1.0)
            hit = bins[:, None] == kidx[None, :]
            counts += tl.sum(tl.where(hit, 1.0, 0.0), axis=1)
        total = tl.sum(counts, axis=0)
        tl.store(freq + c * 256 + tl.arange(0, 256), counts / tl.maximum(total, 1.0))


def run(seq: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    n = offsets.numel() - 1
    freq = torch.empty((n, 256), device=seq.device, dtype=torch.float32)
    grid = (max(1, min(_VECTOR_CORES, n)),)
    _tnf[grid](seq, offsets, freq, n, BLOCK=_BLOCK)
    return freq
