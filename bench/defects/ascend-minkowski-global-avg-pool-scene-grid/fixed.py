"""Global average pooling of a batched sparse tensor: one mean feature row per scene."""
import torch
import triton
import triton.language as tl

BLOCK_ROWS = 64
_VECTOR_CORES = 40  # Atlas A2 (910B)


@triton.jit
def _global_avg_pool(feats, row_splits, out, C, BR: tl.constexpr, BC: tl.constexpr):
    b = tl.program_id(0)
    split = tl.program_id(1)
    nsplit = tl.num_programs(1)
    start = tl.load(row_splits + b)
    stop = tl.load(row_splits + b + 1)
    cols = tl.arange(0, BC)
    cmask = cols < C
    acc = tl.zeros([BR, BC], dtype=tl.float32)
    for r0 in range(start + split * BR, stop, nsplit * BR):
        rows = r0 + tl.arange(0, BR)
        x = tl.load(feats + rows[:, None] * C + cols[None, :],
                    mask=(rows < stop)[:, None] & cmask[None, :], other=0.0)
        acc += x
    inv = 1.0 / tl.maximum((stop - start).to(tl.float32), 1.0)
    tl.atomic_add(out + b * C + cols, tl.sum(acc, axis=0) * inv, mask=cmask)


def run(feats: torch.Tensor, row_splits: torch.Tensor) -> torch.Tensor:
    n, c = feats.shape
    batch = row_splits.shape[0] - 1
    out = torch.zeros((batch, c), device=feats.device, dtype=feats.dtype)
    splits = max(1, _VECTOR_CORES // batch)
    _global_avg_pool[(batch, splits)](feats, row_splits, out, c,
                                      BR=BLOCK_ROWS, BC=triton.next_power_of_2(c))
    return out
