"""Batched CRC-32 of many chunks (nvCOMP's nvcompBatchedCRC32Async / the gzip and zip trailer CRC).

CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320, init and final xor 0xFFFFFFFF; the value of
zlib.crc32) of every chunk of a flat byte buffer. Chunk c is data[offsets[c]:offsets[c+1]]; the
256-entry byte table is passed in, as a CRC kernel keeps it in constant memory.
"""
import torch

META = {
    "name": "crc32_batched_chunks",
    "level": 2,
    "category": "hash",
    "dtypes": ["uint8"],
    "tolerance": {"uint8": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"lengths": [5, 130, 700, 1500]},
        "ragged": {"lengths": [1, 3, 4, 77, 613, 4095, 4097]},
        "large": {"chunks": 2048, "chunk_bytes": 65536, "last_bytes": 40961},
    },
    "baseline_notes": "One program per chunk: the chunk is cut into 16-byte segments, 256 segments per 4 KiB tile; "
                      "each lane runs the byte-table CRC over its segment, shifts it to the tile end by a GF(2) "
                      "multiply with x^(8*distance) mod P, and an xor_sum folds the tile (the running CRC enters "
                      "through lane 0); 4 warps, no autotune.",
    "deterministic": True,
}

POLY = 0xEDB88320


def crc32_table() -> torch.Tensor:
    """The byte table T[i] = CRC register after shifting byte i through the reflected polynomial, as int32 bits."""
    rows = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ POLY if c & 1 else c >> 1
        rows.append(c - (1 << 32) if c >= 1 << 31 else c)
    return torch.tensor(rows, dtype=torch.int32)


def _lengths(size: str) -> list[int]:
    s = META["sizes"][size]
    if "lengths" in s:
        return list(s["lengths"])
    return [s["chunk_bytes"]] * (s["chunks"] - 1) + [s["last_bytes"]]


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """data [sum(lengths)] uint8, offsets [chunks + 1] int32 (chunk starts, then the end), table [256] int32."""
    g = torch.Generator().manual_seed(seed)
    lengths = torch.tensor(_lengths(size), dtype=torch.int64)
    offsets = torch.zeros(lengths.numel() + 1, dtype=torch.int64)
    offsets[1:] = torch.cumsum(lengths, 0)
    data = torch.randint(0, 256, (int(offsets[-1]),), generator=g, dtype=torch.uint8)
    return data.to(device), offsets.to(torch.int32).to(device), crc32_table().to(device)


def reference(data: torch.Tensor, offsets: torch.Tensor, table: torch.Tensor) -> torch.Tensor:
    """Byte-at-a-time table CRC, vectorised over the chunks; int64 result holding the unsigned 32-bit CRC."""
    off = offsets.long()
    starts, lengths = off[:-1], off[1:] - off[:-1]
    tab = table.long() & 0xFFFFFFFF
    crc = torch.full_like(starts, 0xFFFFFFFF)
    last = max(data.numel() - 1, 0)
    for j in range(int(lengths.max()) if lengths.numel() else 0):
        byte = data[(starts + j).clamp(max=last)].long()
        crc = torch.where(j < lengths, tab[(crc ^ byte) & 0xFF] ^ (crc >> 8), crc)
    return crc ^ 0xFFFFFFFF


def cost(size: str, dtype: str | None = None) -> dict:
    n = sum(_lengths(size))
    chunks = len(_lengths(size))
    return {"bytes": n + 4 * (chunks + 1) + 1024 + 8 * chunks, "flops": 0}
