"""SCHISM dav: trapezoidal depth average of the nodal velocity over the vertical levels."""
import torch
import triton
import triton.language as tl


@triton.jit
def _depth_avg_velocity(su2, sv2, znl, dav_u, dav_v, nvrt, h0, NV: tl.constexpr):
    node = tl.program_id(0)
    k = tl.arange(0, NV)
    layer = k < nvrt - 1                       # layer k lies between levels k and k + 1
    col = node * nvrt + k
    z0 = tl.load(znl + col, mask=layer, other=0.0)
    z1 = tl.load(znl + col + 1, mask=layer, other=0.0)
    u0 = tl.load(su2 + col, mask=layer, other=0.0)
    u1 = tl.load(su2 + col + 1, mask=layer, other=0.0)
    v0 = tl.load(sv2 + col, mask=layer, other=0.0)
    v1 = tl.load(sv2 + col + 1, mask=layer, other=0.0)
    dz = z1 - z0
    htot = tl.sum(dz, axis=0)
    su = tl.sum(0.5 * (u0 + u1) * dz, axis=0)
    sv = tl.sum(0.5 * (v0 + v1) * dz, axis=0)
    inv = 1.0 / tl.maximum(htot, h0)
    wet = htot > h0
    tl.store(dav_u + node, tl.where(wet, su * inv, 0.0))
    tl.store(dav_v + node, tl.where(wet, sv * inv, 0.0))


def run(su2: torch.Tensor, sv2: torch.Tensor, znl: torch.Tensor, h0: float) -> tuple:
    npa, nvrt = su2.shape
    dav_u = torch.empty(npa, device=su2.device, dtype=su2.dtype)
    dav_v = torch.empty(npa, device=su2.device, dtype=su2.dtype)
    _depth_avg_velocity[(npa,)](su2, sv2, znl, dav_u, dav_v, nvrt, h0, NV=triton.next_power_of_2(nvrt))
    return dav_u, dav_v
