"""Jacobi-preconditioned CG smoother (fixed iteration count) on a dolfinx MatrixCSR, all scalars kept on the device."""
import torch
import triton
import triton.language as tl

BLOCK = 1024       # vector kernels
PARTS = 256        # at most this many programs per dot product, one partial sum each
ROWS = 32          # SpMV rows per program
NZ_CHUNK = 16      # SpMV nonzeros per row per step


@triton.jit
def _cg_init(b, diag, x, r, z, p, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n
    rb = tl.load(b + offs, mask=ok, other=0.0)
    zb = rb / tl.load(diag + offs, mask=ok, other=1.0)
    tl.store(x + offs, tl.zeros_like(rb), mask=ok)
    tl.store(r + offs, rb, mask=ok)
    tl.store(z + offs, zb, mask=ok)
    tl.store(p + offs, zb, mask=ok)


@triton.jit
def _dot(a, b, out, slot, n, BLOCK: tl.constexpr, PARTS: tl.constexpr):
    pid = tl.program_id(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(pid * BLOCK, n, tl.num_programs(0) * BLOCK):
        offs = start + tl.arange(0, BLOCK)
        ok = offs < n
        acc += tl.load(a + offs, mask=ok, other=0.0) * tl.load(b + offs, mask=ok, other=0.0)
    tl.store(out + slot * PARTS + pid, tl.sum(acc, axis=0))


@triton.jit
def _total(partials, slot, parts, PARTS: tl.constexpr):
    k = tl.arange(0, PARTS)
    return tl.sum(tl.load(partials + slot * PARTS + k, mask=k < parts, other=0.0), axis=0)


@triton.jit
def _spmv(row_ptr, cols, vals, v, out, n_rows, ROWS: tl.constexpr, NZ_CHUNK: tl.constexpr):
    row = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    row_ok = row < n_rows
    start = tl.load(row_ptr + row, mask=row_ok, other=0)
    length = tl.load(row_ptr + row + 1, mask=row_ok, other=0) - start
    k = tl.arange(0, NZ_CHUNK)
    acc = tl.zeros([ROWS, NZ_CHUNK], dtype=tl.float32)
    for base in range(0, tl.max(length, axis=0), NZ_CHUNK):
        ok = (base + k)[None, :] < length[:, None]
        idx = start[:, None] + base + k[None, :]
        c = tl.load(cols + idx, mask=ok, other=0)
        a = tl.load(vals + idx, mask=ok, other=0.0)
        acc += a * tl.load(v + c, mask=ok, other=0.0)
    tl.store(out + row, tl.sum(acc, axis=1), mask=row_ok)


@triton.jit
def _update_xrz(x, r, z, p, q, diag, rz, pq, it, parts, n, BLOCK: tl.constexpr, PARTS: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n
    alpha = _total(rz, it, parts, PARTS) / _total(pq, it, parts, PARTS)
    pv = tl.load(p + offs, mask=ok, other=0.0)
    qv = tl.load(q + offs, mask=ok, other=0.0)
    xv = tl.load(x + offs, mask=ok, other=0.0) + alpha * pv
    rv = tl.load(r + offs, mask=ok, other=0.0) - alpha * qv
    tl.store(x + offs, xv, mask=ok)
    tl.store(r + offs, rv, mask=ok)
    tl.store(z + offs, rv / tl.load(diag + offs, mask=ok, other=1.0), mask=ok)


@triton.jit
def _update_p(p, z, rz, it, parts, n, BLOCK: tl.constexpr, PARTS: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n
    beta = _total(rz, it + 1, parts, PARTS) / _total(rz, it, parts, PARTS)
    pv = tl.load(z + offs, mask=ok, other=0.0) + beta * tl.load(p + offs, mask=ok, other=0.0)
    tl.store(p + offs, pv, mask=ok)


def run(row_ptr, cols, vals, diag, b, n_iter):
    n = b.shape[0]
    x = torch.empty_like(b)
    r = torch.empty_like(b)
    z = torch.empty_like(b)
    p = torch.empty_like(b)
    q = torch.empty_like(b)
    rz = torch.empty(n_iter + 1, PARTS, device=b.device, dtype=torch.float32)   # r.z partials per iteration
    pq = torch.empty(n_iter, PARTS, device=b.device, dtype=torch.float32)
    vec_grid = (triton.cdiv(n, BLOCK),)
    spmv_grid = (triton.cdiv(n, ROWS),)
    parts = min(PARTS, triton.cdiv(n, BLOCK))
    _cg_init[vec_grid](b, diag, x, r, z, p, n, BLOCK=BLOCK)
    _dot[(parts,)](r, z, rz, 0, n, BLOCK=BLOCK, PARTS=PARTS)
    for it in range(n_iter):
        _spmv[spmv_grid](row_ptr, cols, vals, p, q, n, ROWS=ROWS, NZ_CHUNK=NZ_CHUNK)
        _dot[(parts,)](p, q, pq, it, n, BLOCK=BLOCK, PARTS=PARTS)
        _update_xrz[vec_grid](x, r, z, p, q, diag, rz, pq, it, parts, n, BLOCK=BLOCK, PARTS=PARTS)
        _dot[(parts,)](r, z, rz, it + 1, n, BLOCK=BLOCK, PARTS=PARTS)
        _update_p[vec_grid](p, z, rz, it, parts, n, BLOCK=BLOCK, PARTS=PARTS)
    return x
