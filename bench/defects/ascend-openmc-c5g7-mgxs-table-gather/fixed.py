"""Multigroup macroscopic cross-section lookup: (material, group) -> Sigma_t, Sigma_a, nu-Sigma_f."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
BLOCK = 128


@triton.jit
def _pick(hit, row):
    return tl.sum(tl.where(hit, row[None, :], 0.0), axis=1)


@triton.jit
def _mg_calculate_xs(mat, grp, table, xs, n,
                     N_GROUPS: tl.constexpr, TABLE: tl.constexpr, TABLE_P2: tl.constexpr,
                     BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    # the whole (material, group) table is 3 x 49 floats: bring it on chip once per program
    entry = tl.arange(0, TABLE_P2)
    t_total = tl.load(table + entry, mask=entry < TABLE, other=0.0)
    t_absorption = tl.load(table + TABLE + entry, mask=entry < TABLE, other=0.0)
    t_nu_fission = tl.load(table + 2 * TABLE + entry, mask=entry < TABLE, other=0.0)
    for blk in range(pid, tl.cdiv(n, BLOCK), nprog):
        offs = blk * BLOCK + tl.arange(0, BLOCK)
        m = offs < n
        mi = tl.load(mat + offs, mask=m, other=0)
        gi = tl.load(grp + offs, mask=m, other=0)
        idx = mi * N_GROUPS + gi
        hit = idx[:, None] == entry[None, :]
        total = _pick(hit, t_total)
        absorption = _pick(hit, t_absorption)
        nu_fission = _pick(hit, t_nu_fission)
        tl.store(xs + offs, total, mask=m)
        tl.store(xs + n + offs, absorption, mask=m)
        tl.store(xs + 2 * n + offs, nu_fission, mask=m)


def run(mat: torch.Tensor, grp: torch.Tensor, table: torch.Tensor) -> torch.Tensor:
    n = mat.shape[0]
    _, n_mat, n_groups = table.shape
    xs = torch.empty((3, n), device=mat.device, dtype=table.dtype)
    grid = (min(_VECTOR_CORES, triton.cdiv(n, BLOCK)),)
    _mg_calculate_xs[grid](mat, grp, table, xs, n, N_GROUPS=n_groups, TABLE=n_mat * n_groups,
                           TABLE_P2=triton.next_power_of_2(n_mat * n_groups), BLOCK=BLOCK)
    return xs
