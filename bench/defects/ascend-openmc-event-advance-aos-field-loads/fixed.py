"""Event-based advance of a packed particle bank: distance to collision vs lattice wall, then move."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
BLOCK = 512
NREC = 8  # x, y, z, u, v, w, E, wgt


@triton.jit
def _wall_distance(x, u, pitch):
    lo = tl.floor(x / pitch) * pitch
    wall = tl.where(u > 0.0, lo + pitch, lo)
    safe = tl.where(u != 0.0, u, 1.0)
    return tl.where(u != 0.0, (wall - x) / safe, float("inf"))


@triton.jit
def _field(tile, fld, k: tl.constexpr):
    return tl.sum(tl.where(fld[None, :] == k, tile, 0.0), axis=1)


@triton.jit
def _advance(state, sigma_t, xi, out, event, n, px, py, pz,
             NREC: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    fld = tl.arange(0, NREC)
    for blk in range(pid, tl.cdiv(n, BLOCK), nprog):
        offs = blk * BLOCK + tl.arange(0, BLOCK)
        m = offs < n
        rec = state + offs[:, None] * NREC + fld[None, :]
        tile = tl.load(rec, mask=m[:, None], other=1.0)
        x = _field(tile, fld, 0)
        y = _field(tile, fld, 1)
        z = _field(tile, fld, 2)
        u = _field(tile, fld, 3)
        v = _field(tile, fld, 4)
        w = _field(tile, fld, 5)
        st = tl.load(sigma_t + offs, mask=m, other=1.0)
        r = tl.load(xi + offs, mask=m, other=1.0)

        d_col = -tl.log(r) / st
        d_wall = tl.minimum(tl.minimum(_wall_distance(x, u, px), _wall_distance(y, v, py)),
                            _wall_distance(z, w, pz))
        hit = d_col < d_wall
        d = tl.where(hit, d_col, d_wall)

        moved = tl.where(fld[None, :] == 0, (x + d * u)[:, None],
                         tl.where(fld[None, :] == 1, (y + d * v)[:, None],
                                  tl.where(fld[None, :] == 2, (z + d * w)[:, None], tile)))
        tl.store(out + offs[:, None] * NREC + fld[None, :], moved, mask=m[:, None])
        tl.store(event + offs, hit.to(tl.int32), mask=m)


def run(state: torch.Tensor, sigma_t: torch.Tensor, xi: torch.Tensor, px: float, py: float, pz: float) -> tuple:
    n = state.shape[0]
    out = torch.empty_like(state)
    event = torch.empty(n, device=state.device, dtype=torch.int32)
    grid = (min(_VECTOR_CORES, triton.cdiv(n, BLOCK)),)
    _advance[grid](state, sigma_t, xi, out, event, n, px, py, pz, NREC=NREC, BLOCK=BLOCK)
    return out, event
