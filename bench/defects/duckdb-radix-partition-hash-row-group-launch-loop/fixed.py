"""DuckDB external hash join: MurmurHash64 of the BIGINT key and its radix partition, whole column at once."""
import torch
import triton
import triton.language as tl

BLOCK = 1024


@triton.jit
def _hash_partition(keys, hashes, parts, start, end, shift, part_mask, BLOCK: tl.constexpr):
    rows = start + tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = rows < end
    x = tl.load(keys + rows, mask=ok, other=0).to(tl.uint64, bitcast=True)
    # MurmurHash64
    x = x ^ (x >> 32)
    x = x * 0xD6E8FEB86659FD93
    x = x ^ (x >> 32)
    x = x * 0xD6E8FEB86659FD93
    x = x ^ (x >> 32)
    tl.store(hashes + rows, x.to(tl.int64, bitcast=True), mask=ok)
    # RadixPartitioning::ApplyMask: the radix bits right below the 16-bit salt
    part = (x >> shift) & part_mask
    tl.store(parts + rows, part.to(tl.int32), mask=ok)


def run(keys: torch.Tensor, radix_bits: int) -> tuple:
    n = keys.numel()
    hashes = torch.empty(n, dtype=torch.int64, device=keys.device)
    parts = torch.empty(n, dtype=torch.int32, device=keys.device)
    shift, part_mask = 48 - radix_bits, (1 << radix_bits) - 1
    grid = (triton.cdiv(n, BLOCK),)
    _hash_partition[grid](keys, hashes, parts, 0, n, shift, part_mask, BLOCK=BLOCK, num_warps=4)
    return hashes, parts
