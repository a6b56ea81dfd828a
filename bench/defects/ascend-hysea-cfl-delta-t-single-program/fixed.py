"""CFL time step of the shallow-water solver: dt = CFL / max over wet cells of the wave-speed rate."""
import torch
import triton
import triton.language as tl

G = 9.81
DRY_TOL = 1e-5
BLOCK = 2048
_VECTOR_CORES = 40


@triton.jit
def _cfl_partial_rate(h_ptr, hu_ptr, hv_ptr, part_ptr, n, inv_dx, inv_dy,
                      G: tl.constexpr, DRY_TOL: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    rmax = tl.zeros([BLOCK], dtype=tl.float32)
    for blk in range(pid, tl.cdiv(n, BLOCK), nprog):
        offs = blk * BLOCK + tl.arange(0, BLOCK)
        m = offs < n
        h = tl.load(h_ptr + offs, mask=m, other=0.0)
        hu = tl.load(hu_ptr + offs, mask=m, other=0.0)
        hv = tl.load(hv_ptr + offs, mask=m, other=0.0)
        wet = h > DRY_TOL
        hs = tl.where(wet, h, 1.0)
        c = tl.sqrt(G * hs)
        u = tl.abs(hu / hs)
        v = tl.abs(hv / hs)
        rate = tl.maximum((u + c) * inv_dx, (v + c) * inv_dy)
        rate = tl.where(wet, rate, 0.0)
        rmax = tl.maximum(rmax, rate)
    tl.store(part_ptr + pid, tl.max(rmax, axis=0))


@triton.jit
def _cfl_finish(part_ptr, dt_ptr, nparts, cfl, PARTS: tl.constexpr):
    idx = tl.arange(0, PARTS)
    r = tl.load(part_ptr + idx, mask=idx < nparts, other=0.0)
    tl.store(dt_ptr, cfl / tl.max(r, axis=0))


def run(h: torch.Tensor, hu: torch.Tensor, hv: torch.Tensor, dx: float, dy: float,
        cfl: float) -> torch.Tensor:
    n = h.numel()
    nprog = min(_VECTOR_CORES, triton.cdiv(n, BLOCK))
    part = torch.empty(nprog, device=h.device, dtype=torch.float32)
    dt = torch.empty(1, device=h.device, dtype=torch.float32)
    _cfl_partial_rate[(nprog,)](h, hu, hv, part, n, 1.0 / dx, 1.0 / dy,
                                G=G, DRY_TOL=DRY_TOL, BLOCK=BLOCK)
    _cfl_finish[(1,)](part, dt, nprog, cfl, PARTS=triton.next_power_of_2(nprog))
    return dt
