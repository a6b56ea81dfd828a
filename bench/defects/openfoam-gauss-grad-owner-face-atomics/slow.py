"""Gauss-linear gradient of a cell vector field (OpenFOAM gaussGrad): face loop, owner += / neighbour -= ."""
import torch
import triton
import triton.language as tl


@triton.jit
def _face_contributions(u, sf, w, owner, neighbour, acc, n_faces, BLOCK: tl.constexpr):
    f = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = f < n_faces
    own = tl.load(owner + f, mask=m, other=0)
    nei = tl.load(neighbour + f, mask=m, other=0)
    wf = tl.load(w + f, mask=m, other=0.0)
    for j in tl.static_range(3):
        uf = wf * tl.load(u + own * 3 + j, mask=m, other=0.0) + (1.0 - wf) * tl.load(u + nei * 3 + j, mask=m, other=0.0)
        for i in tl.static_range(3):
            flux = tl.load(sf + f * 3 + i, mask=m, other=0.0) * uf
            tl.atomic_add(acc + own * 9 + (i * 3 + j), flux, mask=m)
            tl.atomic_add(acc + nei * 9 + (i * 3 + j), -flux, mask=m)


@triton.jit
def _divide_by_volume(acc, vol, grad, n_cells, BLOCK: tl.constexpr):
    c = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    comp = tl.arange(0, 16)
    m = (c < n_cells)[:, None] & (comp < 9)[None, :]
    v = tl.load(vol + c, mask=c < n_cells, other=1.0)
    g = tl.load(acc + c[:, None] * 9 + comp[None, :], mask=m, other=0.0)
    tl.store(grad + c[:, None] * 9 + comp[None, :], g / v[:, None], mask=m)


def run(u, sf, w, vol, owner, neighbour, own_start, losort, lo_start):
    n_cells, n_faces = u.shape[0], owner.shape[0]
    acc = torch.zeros((n_cells, 3, 3), device=u.device, dtype=torch.float32)
    BLOCK = 256
    _face_contributions[(triton.cdiv(n_faces, BLOCK),)](u, sf, w, owner, neighbour, acc, n_faces,
                                                        BLOCK=BLOCK, num_warps=4)
    grad = torch.empty_like(acc)
    _divide_by_volume[(triton.cdiv(n_cells, 128),)](acc, vol, grad, n_cells, BLOCK=128, num_warps=4)
    return grad
