"""Per-parcel anatomical statistics (mris_anatomical_stats -a aparc) on the Atlas A2."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_NSTAT = 9
_FOUR_PI = 12.566370614359172


@triton.jit
def _parcel_sums(label, area, gray_vol, thickness, k1, k2, acc, V, n_labels,
                 NSTAT: tl.constexpr, NLP: tl.constexpr, BV: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for blk in range(pid, tl.cdiv(V, BV), nprog):
        offs = blk * BV + tl.arange(0, BV)
        vmask = offs < V
        lab = tl.load(label + offs, mask=vmask, other=-1)
        a = tl.load(area + offs, mask=vmask, other=0.0)
        vol = tl.load(gray_vol + offs, mask=vmask, other=0.0)
        t = tl.load(thickness + offs, mask=vmask, other=0.0)
        c1 = tl.load(k1 + offs, mask=vmask, other=0.0)
        c2 = tl.load(k2 + offs, mask=vmask, other=0.0)
        h = 0.5 * (c1 + c2)
        kg = c1 * c2
        kmax = tl.abs(c1)
        kmin = tl.abs(c2)
        keep = vmask & (lab >= 0)
        # one vertex at a time into its parcel's row, as the C loops do
        row = acc + lab * NSTAT
        tl.atomic_add(row + 0, tl.full([BV], 1.0, tl.float32), mask=keep)
        tl.atomic_add(row + 1, a, mask=keep)
        tl.atomic_add(row + 2, vol, mask=keep)
        tl.atomic_add(row + 3, t, mask=keep)
        tl.atomic_add(row + 4, t * t, mask=keep)
        tl.atomic_add(row + 5, tl.abs(h) * a, mask=keep)
        tl.atomic_add(row + 6, tl.abs(kg) * a, mask=keep)
        tl.atomic_add(row + 7, a * kmax * (kmax - kmin), mask=keep)
        tl.atomic_add(row + 8, a * tl.maximum(kg, 0.0), mask=keep)


@triton.jit
def _parcel_table(acc, out, n_labels, NSTAT: tl.constexpr, NLP: tl.constexpr, FOUR_PI: tl.constexpr):
    ids = tl.arange(0, NLP)
    lmask = ids < n_labels
    row = acc + ids * NSTAT
    n = tl.load(row + 0, mask=lmask, other=0.0)
    nz = tl.maximum(n, 1.0)
    mean_t = tl.load(row + 3, mask=lmask, other=0.0) / nz
    var_t = tl.maximum(tl.load(row + 4, mask=lmask, other=0.0) / nz - mean_t * mean_t, 0.0)
    has = n > 0.0
    dst = out + ids * NSTAT
    tl.store(dst + 0, n, mask=lmask)
    tl.store(dst + 1, tl.load(row + 1, mask=lmask, other=0.0), mask=lmask)
    tl.store(dst + 2, tl.load(row + 2, mask=lmask, other=0.0), mask=lmask)
    tl.store(dst + 3, tl.where(has, mean_t, 0.0), mask=lmask)
    tl.store(dst + 4, tl.where(has, tl.sqrt(var_t), 0.0), mask=lmask)
    tl.store(dst + 5, tl.load(row + 5, mask=lmask, other=0.0) / nz, mask=lmask)
    tl.store(dst + 6, tl.load(row + 6, mask=lmask, other=0.0) / nz, mask=lmask)
    tl.store(dst + 7, tl.load(row + 7, mask=lmask, other=0.0) / FOUR_PI, mask=lmask)
    tl.store(dst + 8, tl.load(row + 8, mask=lmask, other=0.0) / FOUR_PI, mask=lmask)


def run(label, area, gray_vol, thickness, k1, k2, n_labels):
    V = label.shape[0]
    acc = torch.zeros((n_labels, _NSTAT), device=area.device, dtype=torch.float32)
    out = torch.empty((n_labels, _NSTAT), device=area.device, dtype=area.dtype)
    NLP = triton.next_power_of_2(n_labels)
    BV = 64
    grid = (min(_VECTOR_CORES, triton.cdiv(V, BV)),)
    _parcel_sums[grid](label, area, gray_vol, thickness, k1, k2, acc, V, n_labels,
                       NSTAT=_NSTAT, NLP=NLP, BV=BV)
    _parcel_table[(1,)](acc, out, n_labels, NSTAT=_NSTAT, NLP=NLP, FOUR_PI=_FOUR_PI)
    return out
