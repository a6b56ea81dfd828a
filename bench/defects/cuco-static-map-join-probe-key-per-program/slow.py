"""Hash-join probe of a linear-probing (key, value) table: the matching value per probe key, -1 when absent."""
import torch
import triton
import triton.language as tl

EMPTY = tl.constexpr(-1)


@triton.jit
def _fmix32(key):
    h = key.to(tl.uint32, bitcast=True)
    h ^= h >> 16
    h *= 0x85EBCA6B
    h ^= h >> 13
    h *= 0xC2B2AE35
    h ^= h >> 16
    return h.to(tl.int32, bitcast=True)


@triton.jit
def _probe(table, probe, out, cap_mask):
    row = tl.program_id(0)
    key = tl.load(probe + row)
    slot = _fmix32(key) & cap_mask
    found = tl.load(table + 2 * slot)
    while (found != key) & (found != EMPTY):
        slot = (slot + 1) & cap_mask
        found = tl.load(table + 2 * slot)
    val = tl.load(table + 2 * slot + 1)
    tl.store(out + row, tl.where(found == key, val, -1))


def run(table: torch.Tensor, probe: torch.Tensor) -> torch.Tensor:
    n = probe.numel()
    out = torch.empty(n, device=probe.device, dtype=torch.int32)
    _probe[(n,)](table, probe, out, table.shape[0] - 1)
    return out
