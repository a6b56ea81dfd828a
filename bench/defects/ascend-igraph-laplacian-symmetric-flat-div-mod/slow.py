"""Symmetric normalized Laplacian of a dense weighted adjacency (igraph laplacian(normalized="symmetric"))."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _degree_kernel(a, deg, hinv, N, stride, BR: tl.constexpr, BC: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for rb in range(pid, tl.cdiv(N, BR), nprog):
        rows = rb * BR + tl.arange(0, BR)
        rmask = rows < N
        acc = tl.zeros([BR, BC], dtype=tl.float32)
        for c0 in range(0, N, BC):
            cols = c0 + tl.arange(0, BC)
            m = rmask[:, None] & (cols < N)[None, :]
            acc += tl.load(a + rows[:, None] * stride + cols[None, :], mask=m, other=0.0)
        d = tl.sum(acc, axis=1)
        h = tl.where(d > 0.0, 1.0 / tl.sqrt(tl.where(d > 0.0, d, 1.0)), 0.0)
        tl.store(deg + rows, d, mask=rmask)
        tl.store(hinv + rows, h, mask=rmask)


@triton.jit
def _normalize_kernel(a, deg, hinv, out, N, total, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for blk in range(pid, tl.cdiv(total, BLOCK), nprog):
        offs = blk * BLOCK + tl.arange(0, BLOCK)
        m = offs < total
        row = offs // N
        col = offs % N
        x = tl.load(a + offs, mask=m, other=0.0)
        hr = tl.load(hinv + row, mask=m, other=0.0)
        dr = tl.load(deg + row, mask=m, other=0.0)
        hc = tl.load(hinv + col, mask=m, other=0.0)
        # ids < 2^24: the diagonal test as an fp32 compare keeps the select on the vector unit
        diag = row.to(tl.float32) == col.to(tl.float32)
        lap = tl.where(diag, dr - x, -x)
        tl.store(out + offs, hr * lap * hc, mask=m)


def run(a: torch.Tensor) -> torch.Tensor:
    n = a.shape[0]
    deg = torch.empty(n, device=a.device, dtype=torch.float32)
    hinv = torch.empty(n, device=a.device, dtype=torch.float32)
    out = torch.empty((n, n), device=a.device, dtype=a.dtype)
    BR, BC = 4, 512
    grid = (max(1, min(_VECTOR_CORES, triton.cdiv(n, BR))),)
    _degree_kernel[grid](a, deg, hinv, n, a.stride(0), BR=BR, BC=BC)
    BLOCK = 2048
    total = n * n
    grid = (max(1, min(_VECTOR_CORES, triton.cdiv(total, BLOCK))),)
    _normalize_kernel[grid](a, deg, hinv, out, n, total, BLOCK=BLOCK)
    return out
