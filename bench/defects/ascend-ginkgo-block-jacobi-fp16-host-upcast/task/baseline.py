"""Block-Jacobi preconditioner apply, z = blockdiag(dinv) r, with fp16-stored inverted blocks."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _block_jacobi_apply(dinv, r, z, nb, bs, BB: tl.constexpr, BS: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    e = tl.arange(0, BS)
    emask = e < bs
    for grp in range(pid, tl.cdiv(nb, BB), nprog):
        blk = grp * BB + tl.arange(0, BB)
        bmask = blk < nb
        vmask = bmask[:, None] & emask[None, :]
        d = tl.load(dinv + blk[:, None, None] * (bs * bs) + e[None, :, None] * bs + e[None, None, :],
                    mask=vmask[:, :, None] & emask[None, None, :], other=0.0).to(tl.float32)
        rv = tl.load(r + blk[:, None] * bs + e[None, :], mask=vmask, other=0.0)
        zv = tl.sum(d * rv[:, None, :], axis=2)
        tl.store(z + blk[:, None] * bs + e[None, :], zv, mask=vmask)


def run(dinv: torch.Tensor, r: torch.Tensor) -> torch.Tensor:
    nb, bs, _ = dinv.shape
    z = torch.empty_like(r)
    BS = triton.next_power_of_2(bs)
    BB = 32
    grid = (min(_VECTOR_CORES, triton.cdiv(nb, BB)),)
    _block_jacobi_apply[grid](dinv, r, z, nb, bs, BB=BB, BS=BS)
    return z
