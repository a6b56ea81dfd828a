"""OpenILT SimpleILT objective: l2, pvbl2, pvbloss and PV-band count from the three corner aerial images."""
import torch
import triton
import triton.language as tl

BLOCK = 2048
MAX_PROGRAMS = 1024


@triton.jit
def _ilt_objective(nom_ptr, max_ptr, min_ptr, tgt_ptr, part_ptr, n, density, steepness,
                   BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    lanes = tl.arange(0, BLOCK)
    acc_l2 = tl.zeros([BLOCK], dtype=tl.float32)
    acc_pvbl2 = tl.zeros([BLOCK], dtype=tl.float32)
    acc_pvbloss = tl.zeros([BLOCK], dtype=tl.float32)
    acc_band = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(pid * BLOCK, n, nprog * BLOCK):
        offs = start + lanes
        m = offs < n
        a_nom = tl.load(nom_ptr + offs, mask=m, other=0.0)
        a_max = tl.load(max_ptr + offs, mask=m, other=0.0)
        a_min = tl.load(min_ptr + offs, mask=m, other=0.0)
        t = tl.load(tgt_ptr + offs, mask=m, other=0.0)
        p_nom = tl.sigmoid(steepness * (a_nom - density))
        p_max = tl.sigmoid(steepness * (a_max - density))
        p_min = tl.sigmoid(steepness * (a_min - density))
        d_nom = tl.where(m, p_nom - t, 0.0)
        d_max = tl.where(m, p_max - t, 0.0)
        d_min = tl.where(m, p_min - t, 0.0)
        d_pv = tl.where(m, p_max - p_min, 0.0)
        acc_l2 += d_nom * d_nom
        acc_pvbl2 += d_max * d_max + d_min * d_min
        acc_pvbloss += d_pv * d_pv
        band = (a_max >= density) != (a_min >= density)
        acc_band += tl.where(m & band, 1.0, 0.0)
    tl.store(part_ptr + pid * 4 + 0, tl.sum(acc_l2, axis=0))
    tl.store(part_ptr + pid * 4 + 1, tl.sum(acc_pvbl2, axis=0))
    tl.store(part_ptr + pid * 4 + 2, tl.sum(acc_pvbloss, axis=0))
    tl.store(part_ptr + pid * 4 + 3, tl.sum(acc_band, axis=0))


@triton.jit
def _sum_partials(part_ptr, out_ptr, nprog, P_POW2: tl.constexpr):
    rows = tl.arange(0, P_POW2)
    cols = tl.arange(0, 4)
    ok = rows[:, None] < nprog
    p = tl.load(part_ptr + rows[:, None] * 4 + cols[None, :], mask=ok, other=0.0)
    tl.store(out_ptr + cols, tl.sum(p, axis=0))


def run(aerial_nom, aerial_max, aerial_min, target, density: float, steepness: float) -> torch.Tensor:
    n = aerial_nom.numel()
    nprog = min(triton.cdiv(n, BLOCK), MAX_PROGRAMS)
    partials = torch.empty((nprog, 4), device=aerial_nom.device, dtype=torch.float32)
    out = torch.empty(4, device=aerial_nom.device, dtype=torch.float32)
    # every program takes a strided share of the tiles; the partial sums are added in a fixed order
    _ilt_objective[(nprog,)](aerial_nom, aerial_max, aerial_min, target, partials, n, density, steepness,
                             BLOCK=BLOCK, num_warps=8)
    _sum_partials[(1,)](partials, out, nprog, P_POW2=triton.next_power_of_2(nprog), num_warps=4)
    return out
