"""Packed-reference coordinate to (contig, position, strand), as BWA-MEM's bns_depos + bns_pos2rid.

BWA indexes the forward reference concatenated with its reverse complement, so a seed or
alignment hit is a coordinate in [0, 2 * l_pac). A hit past l_pac is on the reverse strand and
folds back to 2 * l_pac - 1 - pos; the contig is the last one whose start offset is <= the folded
position (offsets [R + 1] int64, ascending, offsets[R] = l_pac), and the position inside the contig
is the folded position minus that start.
"""
import torch

META = {
    "name": "bwa_pos_to_contig",
    "level": 2,
    "category": "search",
    "dtypes": ["int64"],
    "tolerance": {"int64": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"M": 3000, "R": 90},
        "ragged": {"M": 5003, "R": 333},
        "large": {"M": 8388608, "R": 3366},
    },
    "baseline_notes": "Flat kernel, 1024 hits per program: fold the reverse strand, then a branch-free binary "
                      "search of ceil(log2(R)) steps over the contig offsets (gathers from the 27 KB table), "
                      "int32 contig id, int32 local position, int8 strand; 4 warps, no autotune.",
    "deterministic": True,
}


def _contig_lengths(R: int, big: bool, g: torch.Generator) -> torch.Tensor:
    if not big:
        return torch.randint(1, 200, (R,), generator=g)
    # hs38DH-like: 24 chromosomes of 46-249 Mb, then unplaced, alt, decoy and HLA contigs of 1-100 kb
    chrom = torch.randint(46_000_000, 200_000_000, (24,), generator=g)
    rest = torch.randint(1_000, 100_000, (R - 24,), generator=g)
    return torch.cat([chrom, rest])


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """pos [M] int64 hits in [0, 2 * l_pac), offsets [R + 1] int64 contig starts ending with l_pac."""
    s = META["sizes"][size]
    M, R = s["M"], s["R"]
    g = torch.Generator().manual_seed(seed)
    lengths = _contig_lengths(R, size == "large", g)
    offsets = torch.zeros(R + 1, dtype=torch.int64)
    offsets[1:] = torch.cumsum(lengths, 0)
    l_pac = int(offsets[-1])
    pos = (torch.rand(M, generator=g, dtype=torch.float64) * (2 * l_pac)).to(torch.int64).clamp_(0, 2 * l_pac - 1)
    edges = torch.cat([offsets[:-1], offsets[1:] - 1, 2 * l_pac - 1 - offsets[:-1], 2 * l_pac - offsets[1:]])
    n = min(len(edges), M // 4)
    pos[:n] = edges[torch.randperm(len(edges), generator=g)[:n]]
    return pos.to(device), offsets.to(device)


def reference(pos: torch.Tensor, offsets: torch.Tensor) -> tuple:
    l_pac = offsets[-1]
    is_rev = pos >= l_pac
    fwd = torch.where(is_rev, 2 * l_pac - 1 - pos, pos)
    rid = torch.searchsorted(offsets[1:].contiguous(), fwd, right=True)
    local = fwd - offsets[rid]
    return rid.to(torch.int32), local.to(torch.int32), is_rev.to(torch.int8)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": s["M"] * (8 + 4 + 4 + 1) + 8 * (s["R"] + 1), "flops": 0}
