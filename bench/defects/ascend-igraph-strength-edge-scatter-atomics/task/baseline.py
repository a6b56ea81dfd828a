"""Vertex out-strength of a CSR graph (igraph strength / NetworkX out_degree(weight=...))."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _strength_kernel(indptr, src, w, out, N, BV: tl.constexpr, BE: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for vb in range(pid, tl.cdiv(N, BV), nprog):
        v0 = vb * BV
        verts = v0 + tl.arange(0, BV)
        vmask = verts < N
        e_lo = tl.load(indptr + v0)
        e_hi = tl.load(indptr + tl.minimum(v0 + BV, N))
        acc = tl.zeros([BV], dtype=tl.float32)
        for e0 in range(e_lo, e_hi, BE):
            offs = e0 + tl.arange(0, BE)
            emask = offs < e_hi
            s = tl.load(src + offs, mask=emask, other=-1)
            x = tl.load(w + offs, mask=emask, other=0.0)
            # vertex ids < 2^24 are exact in fp32: compare as floats so the select stays vectorised
            hit = verts.to(tl.float32)[:, None] == s.to(tl.float32)[None, :]
            acc += tl.sum(tl.where(hit, x[None, :], 0.0), axis=1)
        tl.store(out + verts, acc, mask=vmask)


def run(indptr: torch.Tensor, src: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    n = indptr.shape[0] - 1
    out = torch.empty(n, device=w.device, dtype=w.dtype)
    BV, BE = 32, 256
    grid = (max(1, min(_VECTOR_CORES, triton.cdiv(n, BV))),)
    _strength_kernel[grid](indptr, src, w, out, n, BV=BV, BE=BE)
    return out
