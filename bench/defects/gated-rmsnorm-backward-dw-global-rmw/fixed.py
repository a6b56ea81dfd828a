"""Mamba-2 gated RMSNorm backward with the whole row in one block: the dw partial stays in registers across the program's rows."""
import torch
import triton
import triton.language as tl


@triton.jit
def _gate(x, z):
    s = tl.sigmoid(z)
    return x * z * s, s


@triton.jit
def _grads(x, z, s, dg):
    dx = dg * z * s
    dz = dg * x * s * (1.0 + z * (1.0 - s))
    return dx, dz


@triton.jit
def gated_rmsnorm_bwd_kernel(x_ptr, z_ptr, w_ptr, dy_ptr, dx_ptr, dz_ptr, part_ptr, M, N, eps,
                             ROWS: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    m = cols < N
    dw = tl.zeros((BLOCK_N,), dtype=tl.float32)
    for i in range(0, ROWS):
        row = pid * ROWS + i
        if row < M:
            off = row.to(tl.int64) * N
            x = tl.load(x_ptr + off + cols, mask=m, other=0.0).to(tl.float32)
            z = tl.load(z_ptr + off + cols, mask=m, other=0.0).to(tl.float32)
            dy = tl.load(dy_ptr + off + cols, mask=m, other=0.0).to(tl.float32)
            g, s = _gate(x, z)
            dyw = dy * tl.load(w_ptr + cols, mask=m, other=0.0)
            rstd = 1.0 / tl.sqrt(tl.sum(g * g, axis=0) / N + eps)
            c = tl.sum(dyw * g, axis=0) / N
            dg = rstd * dyw - g * rstd * rstd * rstd * c
            dx, dz = _grads(x, z, s, dg)
            tl.store(dx_ptr + off + cols, dx.to(dx_ptr.dtype.element_ty), mask=m)
            tl.store(dz_ptr + off + cols, dz.to(dz_ptr.dtype.element_ty), mask=m)
            dw += dy * g * rstd
    tl.store(part_ptr + pid.to(tl.int64) * N + cols, dw, mask=m)


@triton.jit
def sum_partials_kernel(part_ptr, dw_ptr, P, N, BLOCK_P: tl.constexpr, BLOCK: tl.constexpr):
    cols = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK_P, BLOCK), dtype=tl.float32)
    for start in range(0, P, BLOCK_P):
        ps = start + tl.arange(0, BLOCK_P)
        m = (ps[:, None] < P) & (cols[None, :] < N)
        acc += tl.load(part_ptr + ps[:, None].to(tl.int64) * N + cols[None, :], mask=m, other=0.0)
    tl.store(dw_ptr + cols, tl.sum(acc, axis=0), mask=cols < N)


def run(x: torch.Tensor, z: torch.Tensor, w: torch.Tensor, dy: torch.Tensor, eps: float) -> tuple:
    M, N = x.shape
    rows = 8
    programs = triton.cdiv(M, rows)
    dx = torch.empty_like(x)
    dz = torch.empty_like(z)
    part = torch.empty((programs, N), dtype=torch.float32, device=x.device)
    dw = torch.empty(N, dtype=torch.float32, device=x.device)
    block = triton.next_power_of_2(N)
    gated_rmsnorm_bwd_kernel[(programs,)](x, z, w, dy, dx, dz, part, M, N, eps, ROWS=rows, BLOCK_N=block,
                                          num_warps=min(max(block // 512, 4), 16))
    sum_partials_kernel[(triton.cdiv(N, 32),)](part, dw, programs, N, BLOCK_P=64, BLOCK=32)
    return dx, dz, dw
