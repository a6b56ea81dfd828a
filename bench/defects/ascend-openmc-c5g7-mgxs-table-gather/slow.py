"""Multigroup macroscopic cross-section lookup: (material, group) -> Sigma_t, Sigma_a, nu-Sigma_f."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
BLOCK = 128


@triton.jit
def _mg_calculate_xs(mat, grp, table, xs, n,
                     N_GROUPS: tl.constexpr, TABLE: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for blk in range(pid, tl.cdiv(n, BLOCK), nprog):
        offs = blk * BLOCK + tl.arange(0, BLOCK)
        m = offs < n
        mi = tl.load(mat + offs, mask=m, other=0)
        gi = tl.load(grp + offs, mask=m, other=0)
        idx = mi * N_GROUPS + gi
        total = tl.load(table + idx, mask=m, other=0.0)
        absorption = tl.load(table + TABLE + idx, mask=m, other=0.0)
        nu_fission = tl.load(table + 2 * TABLE + idx, mask=m, other=0.0)
        tl.store(xs + offs, total, mask=m)
        tl.store(xs + n + offs, absorption, mask=m)
        tl.store(xs + 2 * n + offs, nu_fission, mask=m)


def run(mat: torch.Tensor, grp: torch.Tensor, table: torch.Tensor) -> torch.Tensor:
    n = mat.shape[0]
    _, n_mat, n_groups = table.shape
    xs = torch.empty((3, n), device=mat.device, dtype=table.dtype)
    grid = (min(_VECTOR_CORES, triton.cdiv(n, BLOCK)),)
    _mg_calculate_xs[grid](mat, grp, table, xs, n,
                           N_GROUPS=n_groups, TABLE=n_mat * n_groups, BLOCK=BLOCK)
    return xs
