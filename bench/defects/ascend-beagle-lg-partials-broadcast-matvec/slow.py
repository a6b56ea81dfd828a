"""Pruning step for two internal children: dest = (M1 . L1) * (M2 . L2) per rate category and pattern."""
import torch
import triton
import triton.language as tl

_PROGRAMS_PER_CATEGORY = 10


@triton.jit
def _partials_partials(partials1, partials2, matrices1, matrices2, dest, P, stride_cat,
                       S: tl.constexpr, BP: tl.constexpr):
    cat = tl.program_id(0)
    pid = tl.program_id(1)
    nprog = tl.num_programs(1)
    rows = tl.arange(0, S)
    cols = tl.arange(0, S)
    m_off = cat * S * S + rows[:, None] * S + cols[None, :]
    mat1 = tl.load(matrices1 + m_off)
    mat2 = tl.load(matrices2 + m_off)
    for blk in range(pid, tl.cdiv(P, BP), nprog):
        pats = blk * BP + tl.arange(0, BP)
        pmask = pats < P
        offs = cat * stride_cat + pats[:, None] * S + cols[None, :]
        lk1 = tl.load(partials1 + offs, mask=pmask[:, None], other=0.0)
        lk2 = tl.load(partials2 + offs, mask=pmask[:, None], other=0.0)
        sum1 = tl.sum(mat1[None, :, :] * lk1[:, None, :], axis=2)
        sum2 = tl.sum(mat2[None, :, :] * lk2[:, None, :], axis=2)
        tl.store(dest + offs, sum1 * sum2, mask=pmask[:, None])


def run(partials1: torch.Tensor, partials2: torch.Tensor, matrices1: torch.Tensor,
        matrices2: torch.Tensor) -> torch.Tensor:
    C, P, S = partials1.shape
    dest = torch.empty_like(partials1)
    BP = 16  # the [BP, 32, 32] fp32 product must fit the 192 KB unified buffer
    grid = (C, min(_PROGRAMS_PER_CATEGORY, triton.cdiv(P, BP)))
    _partials_partials[grid](partials1, partials2, matrices1, matrices2, dest, P, partials1.stride(0),
                             S=S, BP=BP)
    return dest
