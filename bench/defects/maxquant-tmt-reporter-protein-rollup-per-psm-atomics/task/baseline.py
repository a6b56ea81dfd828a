"""Protein-group reporter intensities: PSM reporter ions summed per protein group (PIF-filtered)."""
import torch
import triton
import triton.language as tl

BLOCK = 128


@triton.jit
def _add_same_key(k1, v1, k2, v2):
    # segmented sum over runs of equal (sorted) keys
    return k2, tl.where(k1 == k2, v1 + v2, v2)


@triton.jit
def _rollup(reporter, protein, pif, intensity, count, n_psm, min_pif,
            CH: tl.constexpr, BLOCK: tl.constexpr):
    rows = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ch = tl.arange(0, CH)
    row_ok = rows < n_psm
    prot = tl.load(protein + rows, mask=row_ok, other=0)
    frac = tl.load(pif + rows, mask=row_ok, other=0.0)
    keep = row_ok & (frac >= min_pif)
    x = tl.load(reporter + rows[:, None] * CH + ch[None, :], mask=row_ok[:, None], other=0.0)
    x = tl.where(keep[:, None], x, 0.0)
    _, run_x = tl.associative_scan((tl.broadcast_to(prot[:, None], [BLOCK, CH]), x), 0, _add_same_key)
    _, run_n = tl.associative_scan((prot, keep.to(tl.int32)), 0, _add_same_key)
    # the last row of each run of one protein in this block carries the run total
    nxt = tl.load(protein + rows + 1, mask=rows + 1 < n_psm, other=-1)
    last = row_ok & ((nxt != prot) | (tl.arange(0, BLOCK) == BLOCK - 1))
    tl.atomic_add(intensity + prot[:, None] * CH + ch[None, :], run_x, mask=last[:, None])
    tl.atomic_add(count + prot, run_n, mask=last)


def run(reporter: torch.Tensor, protein: torch.Tensor, pif: torch.Tensor, min_pif: float, n_groups: int) -> tuple:
    n, ch = reporter.shape
    intensity = torch.zeros((n_groups, ch), device=reporter.device, dtype=torch.float32)
    count = torch.zeros(n_groups, device=reporter.device, dtype=torch.int32)
    _rollup[(triton.cdiv(n, BLOCK),)](reporter, protein, pif, intensity, count, n, min_pif,
                                      CH=ch, BLOCK=BLOCK, num_warps=4)
    return intensity, count
