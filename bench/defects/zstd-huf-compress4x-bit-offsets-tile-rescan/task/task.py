"""Bit positions of Huffman-coded literals in zstd's four literal streams (HUF_compress4X_usingCTable).

zstd codes a block's L literals as four independent Huffman bitstreams: streams 0-2 hold
segmentSize = (L + 3) // 4 literals each, stream 3 the rest. HUF_compress1X_usingCTable emits a
stream from its last literal to its first (BIT_addBits appends each code above the bits already
written), so the code of literal i starts at the bit
    bitpos[i] = sum of nbBits[lit[j]] over the literals j > i of the same stream
and the stream's payload is stream_bits = the sum over all its literals (before the end mark).
A two-pass parallel encoder computes these first, then every literal writes its code at bitpos.
Inputs: literals uint8 [blocks, L]; nbBits uint8 [blocks, 256] (each block's code lengths, 0 for
absent bytes). Returns (bitpos int32 [blocks, L], stream_bits int32 [blocks, 4]).
"""
import torch

META = {
    "name": "zstd_huf4x_bit_offsets",
    "level": 2,
    "category": "scan",
    "dtypes": ["uint8"],
    "tolerance": {"uint8": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"blocks": 2, "L": 16384},
        "ragged": {"blocks": 3, "L": 10001},
        "large": {"blocks": 1024, "L": 131072},
    },
    "baseline_notes": "One program per (block, stream) walks the stream's 1024-literal tiles from last to "
                      "first: code lengths gathered from the block's 256-entry table, in-tile suffix sum by "
                      "tile total minus tl.cumsum, plus the running count of bits after the tile carried in a "
                      "register; the final carry is the stream length. 4 warps, no autotune.",
    "deterministic": True,
}
MAX_BITS = 11  # HUF_TABLELOG_DEFAULT


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """literals: text-like bytes, each block from its own Zipf-shaped distribution over a shuffled
    alphabet of 48..256 symbols; nbBits: Shannon code lengths of the block's byte counts,
    ceil(log2(L / count)) clamped to 1..11, 0 for bytes that do not occur."""
    s = META["sizes"][size]
    nb, L = s["blocks"], s["L"]
    g = torch.Generator().manual_seed(seed)
    alpha = 48 + torch.randint(0, 209, (nb,), generator=g)
    expo = 0.8 + 0.6 * torch.rand(nb, generator=g)
    rank = torch.arange(256, dtype=torch.float64)
    p = (rank[None, :] + 1.0).pow(-expo.double()[:, None])
    p = torch.where(rank[None, :] < alpha[:, None], p, torch.zeros_like(p))
    order = torch.argsort(torch.rand(nb, 256, generator=g), dim=1)
    p = torch.zeros_like(p).scatter_(1, order, p)
    q = torch.floor(p / p.sum(dim=1, keepdim=True) * 65536.0).long()
    q[torch.arange(nb), q.argmax(dim=1)] += 65536 - q.sum(dim=1)
    table = torch.repeat_interleave(torch.arange(256, dtype=torch.uint8).repeat(nb), q.reshape(-1))
    pick = torch.randint(0, 65536, (nb, L), generator=g)
    lit = torch.gather(table.reshape(nb, 65536), 1, pick)
    count = torch.zeros(nb, 256, dtype=torch.float64).scatter_add_(1, lit.long(), torch.ones(nb, L, dtype=torch.float64))
    bits = torch.ceil(torch.log2(L / count.clamp(min=1))).clamp(1, MAX_BITS)
    nbits = torch.where(count > 0, bits, torch.zeros_like(bits)).to(torch.uint8)
    return lit.to(device), nbits.to(device)


def reference(lit: torch.Tensor, nbits: torch.Tensor) -> tuple:
    nb, L = lit.shape
    seg = (L + 3) // 4
    bits = torch.gather(nbits.long(), 1, lit.long())
    bitpos = torch.empty(nb, L, dtype=torch.int64, device=lit.device)
    stream_bits = torch.empty(nb, 4, dtype=torch.int64, device=lit.device)
    for k in range(4):
        part = bits[:, k * seg:min((k + 1) * seg, L)]
        suffix = part.flip(1).cumsum(1).flip(1)  # bits of this literal and all after it
        bitpos[:, k * seg:min((k + 1) * seg, L)] = suffix - part
        stream_bits[:, k] = part.sum(1)
    return bitpos.to(torch.int32), stream_bits.to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    nb, L = s["blocks"], s["L"]
    return {"bytes": nb * L * 5 + nb * 256 + nb * 16, "flops": 2 * nb * L}
