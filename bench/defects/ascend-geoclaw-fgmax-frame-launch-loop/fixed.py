"""fgmax from stored frames: running max depth, max speed and arrival time of every fixed-grid cell."""
import torch
import triton
import triton.language as tl

DRY_TOL = 1e-3
SEA_LEVEL = 0.0
ARRIVAL_TOL = 0.01
BLOCK = 2048
_VECTOR_CORES = 40


@triton.jit
def _fgmax_frames(h_ptr, hu_ptr, hv_ptr, topo_ptr, hmax_ptr, smax_ptr, tarr_ptr, T, n, dt_out,
                  DRY_TOL: tl.constexpr, ETA_ARRIVE: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for blk in range(pid, tl.cdiv(n, BLOCK), nprog):
        offs = blk * BLOCK + tl.arange(0, BLOCK)
        m = offs < n
        b = tl.load(topo_ptr + offs, mask=m, other=0.0)
        hmax = tl.zeros([BLOCK], dtype=tl.float32)
        smax = tl.zeros([BLOCK], dtype=tl.float32)
        tarr = tl.full([BLOCK], float("inf"), dtype=tl.float32)
        for k in range(T):
            t = (k + 1) * dt_out
            h = tl.load(h_ptr + k * n + offs, mask=m, other=0.0)
            hu = tl.load(hu_ptr + k * n + offs, mask=m, other=0.0)
            hv = tl.load(hv_ptr + k * n + offs, mask=m, other=0.0)
            wet = h > DRY_TOL
            hs = tl.where(wet, h, 1.0)
            s = tl.where(wet, tl.sqrt(hu * hu + hv * hv) / hs, 0.0)
            hmax = tl.maximum(hmax, h)
            smax = tl.maximum(smax, s)
            arrived = wet & ((h + b) > ETA_ARRIVE)
            tarr = tl.where(arrived, tl.minimum(tarr, t), tarr)
        tl.store(hmax_ptr + offs, hmax, mask=m)
        tl.store(smax_ptr + offs, smax, mask=m)
        tl.store(tarr_ptr + offs, tarr, mask=m)


def run(h: torch.Tensor, hu: torch.Tensor, hv: torch.Tensor, topo: torch.Tensor, dt_out: float) -> tuple:
    T, ny, nx = h.shape
    n = ny * nx
    hmax = torch.empty((ny, nx), device=h.device, dtype=torch.float32)
    smax = torch.empty((ny, nx), device=h.device, dtype=torch.float32)
    tarr = torch.empty((ny, nx), device=h.device, dtype=torch.float32)
    grid = (min(_VECTOR_CORES, triton.cdiv(n, BLOCK)),)
    _fgmax_frames[grid](h, hu, hv, topo, hmax, smax, tarr, T, n, dt_out,
                        DRY_TOL=DRY_TOL, ETA_ARRIVE=SEA_LEVEL + ARRIVAL_TOL, BLOCK=BLOCK)
    return hmax, smax, tarr
