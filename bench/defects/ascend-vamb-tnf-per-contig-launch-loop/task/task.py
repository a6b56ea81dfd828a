"""Tetranucleotide frequencies (TNF) of metagenome-assembly contigs, VAMB / MetaBAT2 composition.

The contigs are one concatenated FASTA text `seq` (uint8 ASCII, soft-masked lower case allowed,
ambiguous bases such as N) with int32 boundaries `offsets` [n + 1]. For every contig c, every
4-mer s[p..p+3] inside the contig whose four bases are all A/C/G/T (either case) is counted at
index 64*c0 + 16*c1 + 4*c2 + c3 (A 0, C 1, G 2, T 3); 4-mers that contain another byte are
skipped, as VAMB's kmer counter does. The result is freq [n, 256] fp32: counts / total 4-mers
of the contig (a contig without a valid 4-mer gets zeros). VAMB then projects the 256
frequencies onto its 103-dimensional composition basis; that matvec is not part of this task.
"""
import math

import torch

META = {
    "name": "contig_tnf",
    "level": 2,
    "category": "genomics",
    "dtypes": ["uint8"],
    "tolerance": {"uint8": {"atol": 1e-6, "rtol": 1e-5}},
    "sizes": {
        "small": {"contigs": 5, "min_len": 20, "max_len": 200},
        "ragged": {"contigs": 9, "min_len": 3, "max_len": 333},
        "large": {"contigs": 8192, "min_len": 2000, "max_len": 25000},
    },
    "baseline_notes": "One launch of 40 programs (the A2's vector cores); program i takes contigs i, i+40, ... "
                      "and walks each contig in steps of 64 4-mer positions: four shifted contiguous loads, "
                      "ASCII -> code with fp32 compares and selects, 4-mer index, then a [256, 64] one-hot "
                      "compare summed along the positions (tail) axis into a [256] fp32 count vector kept "
                      "in registers; one row store of counts / total per contig. No atomics, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """seq uint8 [T] (all contigs back to back), offsets int32 [contigs + 1] (offsets[0] = 0)."""
    s = META["sizes"][size]
    n = s["contigs"]
    g = torch.Generator().manual_seed(seed)
    # contig lengths log-uniform between the assembler's minimum and a typical long contig
    u = torch.rand(n, generator=g, dtype=torch.float64)
    lengths = torch.exp(math.log(s["min_len"]) + u * (math.log(s["max_len"]) - math.log(s["min_len"])))
    lengths = lengths.round().long().clamp(min=s["min_len"], max=s["max_len"])
    total = int(lengths.sum())
    # GC-biased composition per contig (different genomes), some soft-masked text and N gaps
    gc = 0.3 + 0.4 * torch.rand(n, generator=g, dtype=torch.float64)
    gc_per_base = torch.repeat_interleave(gc, lengths)
    r = torch.rand(total, generator=g, dtype=torch.float64)
    is_gc = torch.rand(total, generator=g, dtype=torch.float64) < gc_per_base
    codes = torch.where(is_gc, 1 + (r < 0.5).long(), 3 * (r < 0.5).long())  # C/G or A/T
    seq = torch.tensor(list(b"ACGT"), dtype=torch.uint8)[codes]
    lower = torch.rand(total, generator=g) < 0.1
    seq = torch.where(lower, seq + 32, seq)
    amb = torch.rand(total, generator=g) < 0.002
    seq = torch.where(amb, torch.full_like(seq, ord("N")), seq)
    gap = int(torch.randint(0, max(1, total - 12), (1,), generator=g))
    seq[gap:gap + 11] = ord("N")
    offsets = torch.zeros(n + 1, dtype=torch.int64)
    offsets[1:] = torch.cumsum(lengths, 0)
    return seq.to(device), offsets.to(torch.int32).to(device)


def reference(seq: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    n = offsets.numel() - 1
    table = torch.full((256,), 4, dtype=torch.int64, device=seq.device)
    for code, ch in enumerate(b"ACGT"):
        table[ch] = code
        table[ch + 32] = code
    codes = table[seq.long()]
    counts = torch.zeros(n * 256, dtype=torch.float64, device=seq.device)
    total = seq.numel()
    if total >= 4:
        c0, c1, c2, c3 = codes[:-3], codes[1:-2], codes[2:-1], codes[3:]
        kidx = 64 * c0 + 16 * c1 + 4 * c2 + c3
        lengths = (offsets[1:] - offsets[:-1]).long()
        contig = torch.repeat_interleave(torch.arange(n, device=seq.device), lengths)
        end = offsets[1:].long()[contig]
        pos = torch.arange(total, device=seq.device)
        ok = (torch.stack([c0, c1, c2, c3]) < 4).all(0) & (pos[:-3] + 3 < end[:-3])
        counts.index_add_(0, contig[:-3][ok] * 256 + kidx[ok], torch.ones(int(ok.sum()), dtype=torch.float64,
                                                                           device=seq.device))
    counts = counts.view(n, 256)
    tot = counts.sum(1, keepdim=True)
    return (counts / tot.clamp(min=1.0)).to(torch.float32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    mean_len = (s["max_len"] - s["min_len"]) / max(1e-9, math.log(s["max_len"] / s["min_len"]))
    t = int(s["contigs"] * mean_len)
    return {"bytes": t + 4 * (s["contigs"] + 1) + 1024 * s["contigs"], "flops": 768 * t}
