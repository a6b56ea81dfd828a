"""Hash-join probe of a linear-probing (key, value) table: the matching value per probe key, -1 when absent."""
import torch
import triton
import triton.language as tl

EMPTY = tl.constexpr(-1)
BLOCK = 1024


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
def _probe(table, probe, out, n, cap_mask, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    valid = offs < n
    key = tl.load(probe + offs, mask=valid, other=EMPTY)
    slot = _fmix32(key) & cap_mask
    found = tl.load(table + 2 * slot, mask=valid, other=EMPTY)
    active = valid & (found != key) & (found != EMPTY)
    while tl.max(active.to(tl.int32), axis=0) > 0:
        slot = tl.where(active, (slot + 1) & cap_mask, slot)
        found = tl.where(active, tl.load(table + 2 * slot, mask=active, other=EMPTY), found)
        active = active & (found != key) & (found != EMPTY)
    hit = valid & (found == key)
    val = tl.load(table + 2 * slot + 1, mask=hit, other=-1)
    tl.store(out + offs, val, mask=valid)


def run(table: torch.Tensor, probe: torch.Tensor) -> torch.Tensor:
    n = probe.numel()
    out = torch.empty(n, device=probe.device, dtype=torch.int32)
    _probe[(triton.cdiv(n, BLOCK),)](table, probe, out, n, table.shape[0] - 1, BLOCK=BLOCK, num_warps=4)
    return out
