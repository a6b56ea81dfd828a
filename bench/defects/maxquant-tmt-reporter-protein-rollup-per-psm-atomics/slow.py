"""Protein-group reporter intensities: PSM reporter ions summed per protein group (PIF-filtered)."""
import torch
import triton
import triton.language as tl

BLOCK = 128


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
    tl.atomic_add(intensity + prot[:, None] * CH + ch[None, :], x, mask=keep[:, None])
    tl.atomic_add(count + prot, tl.full([BLOCK], 1, tl.int32), mask=keep)


def run(reporter: torch.Tensor, protein: torch.Tensor, pif: torch.Tensor, min_pif: float, n_groups: int) -> tuple:
    n, ch = reporter.shape
    intensity = torch.zeros((n_groups, ch), device=reporter.device, dtype=torch.float32)
    count = torch.zeros(n_groups, device=reporter.device, dtype=torch.int32)
    _rollup[(triton.cdiv(n, BLOCK),)](reporter, protein, pif, intensity, count, n, min_pif,
                                      CH=ch, BLOCK=BLOCK, num_warps=4)
    return intensity, count
