"""Gauss-linear gradient of a cell vector field (OpenFOAM gaussGrad): each cell gathers its faces."""
import torch
import triton
import triton.language as tl


@triton.jit
def _outer_add(acc0, acc1, acc2, s_ptr, face, uf, m):
    acc0 += tl.load(s_ptr + face * 3 + 0, mask=m, other=0.0)[:, None] * uf
    acc1 += tl.load(s_ptr + face * 3 + 1, mask=m, other=0.0)[:, None] * uf
    acc2 += tl.load(s_ptr + face * 3 + 2, mask=m, other=0.0)[:, None] * uf
    return acc0, acc1, acc2


@triton.jit
def _gauss_grad_cells(u, sf, w, vol, owner, neighbour, own_start, losort, lo_start, grad, n_cells,
                      BLOCK: tl.constexpr):
    c = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    cm = c < n_cells
    j = tl.arange(0, 4)
    jm = j < 3
    uc = tl.load(u + c[:, None] * 3 + j[None, :], mask=cm[:, None] & jm[None, :], other=0.0)
    acc0 = tl.zeros([BLOCK, 4], dtype=tl.float32)
    acc1 = tl.zeros([BLOCK, 4], dtype=tl.float32)
    acc2 = tl.zeros([BLOCK, 4], dtype=tl.float32)
    # faces this cell owns: U_f = w U_c + (1 - w) U_nei, added
    first = tl.load(own_start + c, mask=cm, other=0)
    count = tl.load(own_start + c + 1, mask=cm, other=0) - first
    for k in range(0, tl.max(count, axis=0)):
        m = k < count
        face = first + k
        nb = tl.load(neighbour + face, mask=m, other=0)
        wf = tl.load(w + face, mask=m, other=0.0)[:, None]
        un = tl.load(u + nb[:, None] * 3 + j[None, :], mask=m[:, None] & jm[None, :], other=0.0)
        acc0, acc1, acc2 = _outer_add(acc0, acc1, acc2, sf, face, wf * uc + (1.0 - wf) * un, m)
    # faces whose neighbour this cell is: U_f = w U_own + (1 - w) U_c, subtracted
    first = tl.load(lo_start + c, mask=cm, other=0)
    count = tl.load(lo_start + c + 1, mask=cm, other=0) - first
    for k in range(0, tl.max(count, axis=0)):
        m = k < count
        face = tl.load(losort + first + k, mask=m, other=0)
        ow = tl.load(owner + face, mask=m, other=0)
        wf = tl.load(w + face, mask=m, other=0.0)[:, None]
        uo = tl.load(u + ow[:, None] * 3 + j[None, :], mask=m[:, None] & jm[None, :], other=0.0)
        acc0, acc1, acc2 = _outer_add(acc0, acc1, acc2, sf, face, -(wf * uo + (1.0 - wf) * uc), m)
    inv_v = 1.0 / tl.load(vol + c, mask=cm, other=1.0)[:, None]
    out = grad + c[:, None] * 9 + j[None, :]
    om = cm[:, None] & jm[None, :]
    tl.store(out, acc0 * inv_v, mask=om)
    tl.store(out + 3, acc1 * inv_v, mask=om)
    tl.store(out + 6, acc2 * inv_v, mask=om)


def run(u, sf, w, vol, owner, neighbour, own_start, losort, lo_start):
    n_cells = u.shape[0]
    grad = torch.empty((n_cells, 3, 3), device=u.device, dtype=torch.float32)
    BLOCK = 128
    _gauss_grad_cells[(triton.cdiv(n_cells, BLOCK),)](u, sf, w, vol, owner, neighbour, own_start, losort,
                                                      lo_start, grad, n_cells, BLOCK=BLOCK, num_warps=4)
    return grad
