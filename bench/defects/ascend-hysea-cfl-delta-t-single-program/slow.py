"""CFL time step of the shallow-water solver: dt = CFL / max over wet cells of the wave-speed rate."""
import torch
import triton
import triton.language as tl

G = 9.81
DRY_TOL = 1e-5
BLOCK = 2048


@triton.jit
def _cfl_delta_t(h_ptr, hu_ptr, hv_ptr, dt_ptr, n, inv_dx, inv_dy, cfl,
                 G: tl.constexpr, DRY_TOL: tl.constexpr, BLOCK: tl.constexpr):
    rmax = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
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
    tl.store(dt_ptr, cfl / tl.max(rmax, axis=0))


def run(h: torch.Tensor, hu: torch.Tensor, hv: torch.Tensor, dx: float, dy: float,
        cfl: float) -> torch.Tensor:
    n = h.numel()
    dt = torch.empty(1, device=h.device, dtype=torch.float32)
    _cfl_delta_t[(1,)](h, hu, hv, dt, n, 1.0 / dx, 1.0 / dy, cfl,
                       G=G, DRY_TOL=DRY_TOL, BLOCK=BLOCK)
    return dt
