"""Batched CRC-32 (zlib/gzip polynomial) of many chunks, one program per chunk."""
import torch
import triton
import triton.language as tl


@triton.jit
def _crc32_chunks(data, offsets, table, out):
    chunk = tl.program_id(0)
    start = tl.load(offsets + chunk)
    end = tl.load(offsets + chunk + 1)
    crc = tl.full([], 0xFFFFFFFF, tl.uint32)
    for i in range(start, end):
        byte = tl.load(data + i).to(tl.uint32)
        idx = ((crc ^ byte) & 0xFF).to(tl.int32)
        crc = tl.load(table + idx).to(tl.uint32, bitcast=True) ^ (crc >> 8)
    tl.store(out + chunk, (crc ^ 0xFFFFFFFF).to(tl.int64))


def run(data: torch.Tensor, offsets: torch.Tensor, table: torch.Tensor) -> torch.Tensor:
    chunks = offsets.numel() - 1
    out = torch.empty(chunks, device=data.device, dtype=torch.int64)
    _crc32_chunks[(chunks,)](data, offsets, table, out, num_warps=4)
    return out
