"""healpy.ud_grade of NESTED maps: average of the non-UNSEEN children of every parent pixel."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_UNSEEN = -1.6375e30


@triton.jit
def _ud_grade_nest(m_ptr, out_ptr, n_parent, unseen, RATIO: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for blk in range(pid, tl.cdiv(n_parent, BLOCK), nprog):
        parent = blk * BLOCK + tl.arange(0, BLOCK)
        pmask = parent < n_parent
        total = tl.zeros([BLOCK], dtype=tl.float32)
        nhit = tl.zeros([BLOCK], dtype=tl.float32)
        for j in range(RATIO):
            v = tl.load(m_ptr + parent * RATIO + j, mask=pmask, other=unseen)
            good = v != unseen
            total += tl.where(good, v, 0.0)
            nhit += good.to(tl.float32)
        res = tl.where(nhit > 0.0, total / tl.maximum(nhit, 1.0), unseen)
        tl.store(out_ptr + parent, res, mask=pmask)


def run(maps: torch.Tensor, nside_out: int) -> torch.Tensor:
    n_maps, npix_in = maps.shape
    npix_out = 12 * nside_out * nside_out
    ratio = npix_in // npix_out
    out = torch.empty((n_maps, npix_out), device=maps.device, dtype=maps.dtype)
    # the maps are contiguous, so the parents of all maps are one flat range of n_maps * npix_out
    n_parent = n_maps * npix_out
    BLOCK = 1024
    grid = (min(_VECTOR_CORES, triton.cdiv(n_parent, BLOCK)),)
    _ud_grade_nest[grid](maps, out, n_parent, _UNSEEN, RATIO=ratio, BLOCK=BLOCK)
    return out
