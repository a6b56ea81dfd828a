"""Vertex out-strength of a CSR graph (igraph strength / NetworkX out_degree(weight=...))."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _strength_kernel(src, w, out, E, BE: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for eb in range(pid, tl.cdiv(E, BE), nprog):
        offs = eb * BE + tl.arange(0, BE)
        emask = offs < E
        s = tl.load(src + offs, mask=emask, other=0)
        x = tl.load(w + offs, mask=emask, other=0.0)
        tl.atomic_add(out + s, x, mask=emask)


def run(indptr: torch.Tensor, src: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    n = indptr.shape[0] - 1
    e = src.shape[0]
    out = torch.zeros(n, device=w.device, dtype=w.dtype)
    BE = 512
    grid = (max(1, min(_VECTOR_CORES, triton.cdiv(e, BE))),)
    _strength_kernel[grid](src, w, out, e, BE=BE)
    return out
