"""Environment-map importance sampling: pbrt-v4 PiecewiseConstant2D::Sample over the sky's CDFs."""
import torch
import triton
import triton.language as tl

BLOCK = 128
CHUNK = 64


@triton.jit
def _find_interval(cdf_row, u, live, n, BLOCK: tl.constexpr, CHUNK: tl.constexpr):
    # FindInterval(n + 1, cdf[i] <= u): the CDF is sorted, so the interval is the number of entries
    # <= u, minus one. Count them a chunk of the table at a time.
    cols = tl.arange(0, CHUNK)
    count = tl.zeros([BLOCK], dtype=tl.int32)
    for start in range(0, n + 1, CHUNK):
        idx = start + cols
        inside = live[:, None] & (idx[None, :] <= n)
        c = tl.load(cdf_row[:, None] + idx[None, :], mask=inside, other=2.0)
        count += tl.sum((c <= u[:, None]).to(tl.int32), axis=1)
    return tl.minimum(tl.maximum(count - 1, 0), n - 1)


@triton.jit
def _sample_env(u_ptr, cond_cdf, func, row_int, marg_cdf, uv_ptr, pdf_ptr, n_samples, nu, nv, marg_int,
                BLOCK: tl.constexpr, CHUNK: tl.constexpr):
    s = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    live = s < n_samples
    u0 = tl.load(u_ptr + 2 * s, mask=live, other=0.0)
    u1 = tl.load(u_ptr + 2 * s + 1, mask=live, other=0.0)

    # marginal over rows (v)
    zero = tl.zeros([BLOCK], dtype=tl.int32)
    row = _find_interval(marg_cdf + zero, u1, live, nv, BLOCK, CHUNK)
    c0 = tl.load(marg_cdf + row, mask=live, other=0.0)
    c1 = tl.load(marg_cdf + row + 1, mask=live, other=1.0)
    dv = u1 - c0
    dv = tl.where(c1 - c0 > 0, dv / (c1 - c0), dv)
    v = (row.to(tl.float32) + dv) / nv
    r_int = tl.load(row_int + row, mask=live, other=1.0)
    pdf_v = r_int / marg_int

    # conditional over columns (u) of the chosen row
    row_cdf = cond_cdf + row * (nu + 1)
    col = _find_interval(row_cdf, u0, live, nu, BLOCK, CHUNK)
    c0 = tl.load(row_cdf + col, mask=live, other=0.0)
    c1 = tl.load(row_cdf + col + 1, mask=live, other=1.0)
    du = u0 - c0
    du = tl.where(c1 - c0 > 0, du / (c1 - c0), du)
    uu = (col.to(tl.float32) + du) / nu
    f = tl.load(func + row * nu + col, mask=live, other=0.0)
    pdf_u = f / r_int

    tl.store(uv_ptr + 2 * s, uu, mask=live)
    tl.store(uv_ptr + 2 * s + 1, v, mask=live)
    tl.store(pdf_ptr + s, pdf_u * pdf_v, mask=live)


def run(u, cond_cdf, func, row_int, marg_cdf, marg_int):
    n = u.shape[0]
    nv, nu = func.shape
    uv = torch.empty(n, 2, device=u.device, dtype=u.dtype)
    pdf = torch.empty(n, device=u.device, dtype=u.dtype)
    grid = (triton.cdiv(n, BLOCK),)
    _sample_env[grid](u, cond_cdf, func, row_int, marg_cdf, uv, pdf, n, nu, nv, marg_int,
                      BLOCK=BLOCK, CHUNK=CHUNK, num_warps=4)
    return uv, pdf
