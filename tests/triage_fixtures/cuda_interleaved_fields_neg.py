# backend: cuda
# absent: cuda-interleaved-fields
# xyz points (three words share their L1 lines) and a 12-word table every program reads whole
import torch
import triton
import triton.language as tl


@triton.jit
def nearest_plane_kernel(pt_ptr, plane_ptr, out_ptr, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = i < n
    x = tl.load(pt_ptr + i * 3, mask=m, other=0.0)
    y = tl.load(pt_ptr + i * 3 + 1, mask=m, other=0.0)
    z = tl.load(pt_ptr + i * 3 + 2, mask=m, other=0.0)
    p = tl.arange(0, 16)
    a = tl.load(plane_ptr + p * 12 + 0)[None, :]
    b = tl.load(plane_ptr + p * 12 + 1)[None, :]
    c = tl.load(plane_ptr + p * 12 + 2)[None, :]
    d = tl.load(plane_ptr + p * 12 + 3)[None, :]
    e = tl.load(plane_ptr + p * 12 + 4)[None, :]
    f = tl.load(plane_ptr + p * 12 + 5)[None, :]
    dist = a * x[:, None] + b * y[:, None] + c * z[:, None] + d + e * f
    tl.store(out_ptr + i, tl.min(tl.abs(dist), axis=1), mask=m)


def run(points, planes):
    n = points.shape[0]
    out = torch.empty(n, device=points.device)
    nearest_plane_kernel[(triton.cdiv(n, 256),)](points, planes, out, n, BLOCK=256)
    return out
