"""DeePMD se_e2_a environment matrix on the NPU: smooth 1/r switching of each neighbour, per-type normalisation."""
import torch
import triton
import triton.language as tl

RCUT_SMTH = tl.constexpr(0.5)
RCUT = tl.constexpr(6.0)
NUM_PROGRAMS = 40  # Atlas A2 (910B4): 40 AI vector cores


@triton.jit
def _smooth_weight(r):
    uu = (tl.minimum(tl.maximum(r, RCUT_SMTH), RCUT) - RCUT_SMTH) / (RCUT - RCUT_SMTH)
    return uu * uu * uu * (uu * (uu * -6.0 + 15.0) - 10.0) + 1.0


@triton.jit
def _env_mat_rows(rij_atom, out_atom, avg_row, std_row, nnei, BLOCK_N: tl.constexpr):
    j = tl.arange(0, BLOCK_N)[:, None]
    c = tl.arange(0, 4)[None, :]
    # columns 1..3 hold the displacement, column 0 is the radial term
    d = tl.load(rij_atom + j * 3 + (c - 1), mask=(j < nnei) & (c >= 1), other=0.0)
    r2 = tl.sum(d * d, axis=1)
    valid = r2 > 0.0
    inv_r = 1.0 / tl.sqrt(tl.where(valid, r2, 1.0))
    sw = tl.where(valid, _smooth_weight(r2 * inv_r), 0.0)
    head = tl.maximum(1.0 - c.to(tl.float32), 0.0)
    em = (d * inv_r[:, None] + head) * (sw * inv_r)[:, None]
    avg = tl.load(avg_row + c)
    std = tl.load(std_row + c)
    tl.store(out_atom + j * 4 + c, (em - avg) / std, mask=(j < nnei) & (c < 4))


@triton.jit
def _env_mat_kernel(rij, atype, davg, dstd, out, nloc, nnei, BLOCK_N: tl.constexpr):
    for atom in range(tl.program_id(0), nloc, tl.num_programs(0)):
        t = tl.load(atype + atom)
        _env_mat_rows(rij + atom * nnei * 3, out + atom * nnei * 4, davg + t * 4, dstd + t * 4, nnei, BLOCK_N)


def run(rij: torch.Tensor, atype: torch.Tensor, davg: torch.Tensor, dstd: torch.Tensor) -> torch.Tensor:
    nloc, nnei, _ = rij.shape
    out = torch.empty(nloc, nnei, 4, device=rij.device, dtype=torch.float32)
    grid = (min(nloc, NUM_PROGRAMS),)
    _env_mat_kernel[grid](rij, atype, davg, dstd, out, nloc, nnei, BLOCK_N=triton.next_power_of_2(nnei))
    return out
