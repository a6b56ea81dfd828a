"""OpenILT SimpleILT objective: l2, pvbl2, pvbloss and PV-band count from the three corner aerial images."""
import torch
import triton
import triton.language as tl

BLOCK = 2048


@triton.jit
def _ilt_objective(nom_ptr, max_ptr, min_ptr, tgt_ptr, out_ptr, n, density, steepness,
                   BLOCK: tl.constexpr):
    lanes = tl.arange(0, BLOCK)
    acc_l2 = tl.zeros([BLOCK], dtype=tl.float32)
    acc_pvbl2 = tl.zeros([BLOCK], dtype=tl.float32)
    acc_pvbloss = tl.zeros([BLOCK], dtype=tl.float32)
    acc_band = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n, BLOCK):
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
    tl.store(out_ptr + 0, tl.sum(acc_l2, axis=0))
    tl.store(out_ptr + 1, tl.sum(acc_pvbl2, axis=0))
    tl.store(out_ptr + 2, tl.sum(acc_pvbloss, axis=0))
    tl.store(out_ptr + 3, tl.sum(acc_band, axis=0))


def run(aerial_nom, aerial_max, aerial_min, target, density: float, steepness: float) -> torch.Tensor:
    n = aerial_nom.numel()
    out = torch.empty(4, device=aerial_nom.device, dtype=torch.float32)
    # one program walks the whole clip so the sums come out in a fixed order (no atomics)
    _ilt_objective[(1,)](aerial_nom, aerial_max, aerial_min, target, out, n, density, steepness,
                         BLOCK=BLOCK, num_warps=8)
    return out
