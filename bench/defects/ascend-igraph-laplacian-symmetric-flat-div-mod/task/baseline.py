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
def _normalize_kernel(a, deg, hinv, out, N, stride, stride_o, BR: tl.constexpr, BC: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for rb in range(pid, tl.cdiv(N, BR), nprog):
        rows = rb * BR + tl.arange(0, BR)
        rmask = rows < N
        hr = tl.load(hinv + rows, mask=rmask, other=0.0)
        dr = tl.load(deg + rows, mask=rmask, other=0.0)
        for c0 in range(0, N, BC):
            cols = c0 + tl.arange(0, BC)
            cmask = cols < N
            m = rmask[:, None] & cmask[None, :]
            x = tl.load(a + rows[:, None] * stride + cols[None, :], mask=m, other=0.0)
            hc = tl.load(hinv + cols, mask=cmask, other=0.0)
            # ids < 2^24: the diagonal test as an fp32 compare keeps the select on the vector unit
            diag = rows.to(tl.float32)[:, None] == cols.to(tl.float32)[None, :]
            lap = tl.where(diag, dr[:, None] - x, -x)
            tl.store(out + rows[:, None] * stride_o + cols[None, :], hr[:, None] * lap * hc[None, :], mask=m)


def run(a: torch.Tensor) -> torch.Tensor:
    n = a.shape[0]
    deg = torch.empty(n, device=a.device, dtype=torch.float32)
    hinv = torch.empty(n, device=a.device, dtype=torch.float32)
    out = torch.empty((n, n), device=a.device, dtype=a.dtype)
    BR, BC = 4, 512
    grid = (max(1, min(_VECTOR_CORES, triton.cdiv(n, BR))),)
    _degree_kernel[grid](a, deg, hinv, n, a.stride(0), BR=BR, BC=BC)
    _normalize_kernel[grid](a, deg, hinv, out, n, a.stride(0), out.stride(0), BR=BR, BC=BC)
    return out
