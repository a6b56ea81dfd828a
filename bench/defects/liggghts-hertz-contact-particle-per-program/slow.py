"""DEM Hertz normal contact forces over a padded neighbour list, one program per particle."""
import torch
import triton
import triton.language as tl

KN = tl.constexpr(1000.0)
GN = tl.constexpr(5.0)


@triton.jit
def _hertz_contact(pos, vel, rad, nbr, force, K, BLOCK_K: tl.constexpr):
    i = tl.program_id(0)
    k = tl.arange(0, BLOCK_K)
    j = tl.load(nbr + i * K + k, mask=k < K, other=-1)
    live = j >= 0
    js = tl.where(live, j, 0)
    dx = tl.load(pos + i * 3) - tl.load(pos + js * 3, mask=live, other=0.0)
    dy = tl.load(pos + i * 3 + 1) - tl.load(pos + js * 3 + 1, mask=live, other=0.0)
    dz = tl.load(pos + i * 3 + 2) - tl.load(pos + js * 3 + 2, mask=live, other=0.0)
    ri = tl.load(rad + i)
    rj = tl.load(rad + js, mask=live, other=1.0)
    dist = tl.sqrt(dx * dx + dy * dy + dz * dz)
    delta = ri + rj - dist
    contact = live & (delta > 0)
    inv = 1.0 / tl.where(contact, dist, 1.0)
    sq = tl.sqrt(tl.where(contact, ri * rj / (ri + rj) * delta, 0.0))
    dvx = tl.load(vel + i * 3) - tl.load(vel + js * 3, mask=live, other=0.0)
    dvy = tl.load(vel + i * 3 + 1) - tl.load(vel + js * 3 + 1, mask=live, other=0.0)
    dvz = tl.load(vel + i * 3 + 2) - tl.load(vel + js * 3 + 2, mask=live, other=0.0)
    vn = (dvx * dx + dvy * dy + dvz * dz) * inv
    f = tl.where(contact, (KN * sq * delta - GN * sq * vn) * inv, 0.0)
    tl.store(force + i * 3, tl.sum(f * dx, axis=0))
    tl.store(force + i * 3 + 1, tl.sum(f * dy, axis=0))
    tl.store(force + i * 3 + 2, tl.sum(f * dz, axis=0))


def run(pos: torch.Tensor, vel: torch.Tensor, radius: torch.Tensor, nbr: torch.Tensor) -> torch.Tensor:
    N, K = nbr.shape
    force = torch.empty((N, 3), device=pos.device, dtype=torch.float32)
    _hertz_contact[(N,)](pos, vel, radius, nbr, force, K, BLOCK_K=triton.next_power_of_2(K), num_warps=4)
    return force
