"""GroupNorm backward on Ascend: per-plane sums of dy and dy * x, then dx from the group coefficients, then
dgamma / dbeta over the batch; every launch has its grid sized to the vector cores."""
import torch
import triton
import triton.language as tl

CORE_NUM = 40
BLOCK_HW = 4096
BLOCK_CH = 128


@triton.jit
def _plane_sums(x_plane, dy_plane, HW, BLOCK_HW: tl.constexpr):
    acc_dyx = tl.zeros([BLOCK_HW], dtype=tl.float32)
    acc_dy = tl.zeros([BLOCK_HW], dtype=tl.float32)
    for s in range(0, HW, BLOCK_HW):
        offs = s + tl.arange(0, BLOCK_HW)
        m = offs < HW
        x = tl.load(x_plane + offs, mask=m, other=0.0)
        dy = tl.load(dy_plane + offs, mask=m, other=0.0)
        acc_dyx += dy * x
        acc_dy += dy
    return tl.sum(acc_dyx, axis=0), tl.sum(acc_dy, axis=0)


@triton.jit
def _dx_plane(x_plane, dy_plane, dx_plane, a, b, c, HW, BLOCK_HW: tl.constexpr):
    for s in range(0, HW, BLOCK_HW):
        offs = s + tl.arange(0, BLOCK_HW)
        m = offs < HW
        x = tl.load(x_plane + offs, mask=m, other=0.0)
        dy = tl.load(dy_plane + offs, mask=m, other=0.0)
        tl.store(dx_plane + offs, a * dy + b * x + c, mask=m)


@triton.jit
def gn_bwd_plane_sums_kernel(x_ptr, dy_ptr, ds_ptr, db_ptr, n_planes, HW, BLOCK_HW: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for plane in range(pid, n_planes, nprog):
        ds, db = _plane_sums(x_ptr + plane * HW, dy_ptr + plane * HW, HW, BLOCK_HW)
        tl.store(ds_ptr + plane, ds)
        tl.store(db_ptr + plane, db)


@triton.jit
def gn_bwd_dx_kernel(x_ptr, dy_ptr, dx_ptr, ds_ptr, db_ptr, mean_ptr, rstd_ptr, gamma_ptr, C, G, n_planes, HW,
                     BLOCK_HW: tl.constexpr, BLOCK_CPG: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    cpg = C // G
    inv_m = 1.0 / (cpg * HW)
    offs_g = tl.arange(0, BLOCK_CPG)
    for plane in range(pid, n_planes, nprog):
        n = plane // C
        ch = plane % C
        grp = ch // cpg
        mu = tl.load(mean_ptr + n * G + grp)
        r = tl.load(rstd_ptr + n * G + grp)
        g_mask = offs_g < cpg
        g_ch = grp * cpg + offs_g
        gam = tl.load(gamma_ptr + g_ch, mask=g_mask, other=0.0)
        sum_gdyx = tl.sum(gam * tl.load(ds_ptr + n * C + g_ch, mask=g_mask, other=0.0), axis=0)
        sum_gdy = tl.sum(gam * tl.load(db_ptr + n * C + g_ch, mask=g_mask, other=0.0), axis=0)
        b = -r * r * r * (sum_gdyx - mu * sum_gdy) * inv_m
        c = -r * sum_gdy * inv_m - mu * b
        a = r * tl.load(gamma_ptr + ch)
        _dx_plane(x_ptr + plane * HW, dy_ptr + plane * HW, dx_ptr + plane * HW, a, b, c, HW, BLOCK_HW)


@triton.jit
def gn_bwd_affine_kernel(ds_ptr, db_ptr, mean_ptr, rstd_ptr, dgamma_ptr, dbeta_ptr, N, C, G,
                         BLOCK_CH: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    cpg = C // G
    for blk in range(pid, tl.cdiv(C, BLOCK_CH), nprog):
        ch = blk * BLOCK_CH + tl.arange(0, BLOCK_CH)
        m = ch < C
        grp = ch // cpg
        dgamma = tl.zeros([BLOCK_CH], dtype=tl.float32)
        dbeta = tl.zeros([BLOCK_CH], dtype=tl.float32)
        for n in range(0, N):
            ds = tl.load(ds_ptr + n * C + ch, mask=m, other=0.0)
            db = tl.load(db_ptr + n * C + ch, mask=m, other=0.0)
            mu = tl.load(mean_ptr + n * G + grp, mask=m, other=0.0)
            r = tl.load(rstd_ptr + n * G + grp, mask=m, other=0.0)
            dgamma += r * (ds - mu * db)
            dbeta += db
        tl.store(dgamma_ptr + ch, dgamma, mask=m)
        tl.store(dbeta_ptr + ch, dbeta, mask=m)


def run(x: torch.Tensor, dy: torch.Tensor, mean: torch.Tensor, rstd: torch.Tensor, gamma: torch.Tensor,
        num_groups: int) -> tuple:
    N, C, H, W = x.shape
    HW = H * W
    n_planes = N * C
    dx = torch.empty_like(x)
    dgamma = torch.empty(C, dtype=torch.float32, device=x.device)
    dbeta = torch.empty(C, dtype=torch.float32, device=x.device)
    ds = torch.empty((N, C), dtype=torch.float32, device=x.device)
    db = torch.empty((N, C), dtype=torch.float32, device=x.device)
    grid = (min(CORE_NUM, n_planes),)
    gn_bwd_plane_sums_kernel[grid](x, dy, ds, db, n_planes, HW, BLOCK_HW=BLOCK_HW)
    gn_bwd_dx_kernel[grid](x, dy, dx, ds, db, mean, rstd, gamma, C, num_groups, n_planes, HW,
                           BLOCK_HW=BLOCK_HW, BLOCK_CPG=triton.next_power_of_2(C // num_groups))
    affine_grid = (min(CORE_NUM, triton.cdiv(C, BLOCK_CH)),)
    gn_bwd_affine_kernel[affine_grid](ds, db, mean, rstd, dgamma, dbeta, N, C, num_groups, BLOCK_CH=BLOCK_CH)
    return dx, dgamma, dbeta
