"""GADGET-4 leapfrog kick + drift with periodic wrap, pos / vel / acc as [N, 3] fp32 (x, y, z per particle)."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
BLOCK = 2048


@triton.jit
def _kick_drift(pos, vel, acc, pos_out, vel_out, n, kick, drift, box, inv_box, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for blk in range(pid, tl.cdiv(n, BLOCK), nprog):
        i = blk * BLOCK + tl.arange(0, BLOCK)
        m = i < n
        for d in tl.static_range(3):
            v = tl.load(vel + 3 * i + d, mask=m, other=0.0)
            a = tl.load(acc + 3 * i + d, mask=m, other=0.0)
            x = tl.load(pos + 3 * i + d, mask=m, other=0.0)
            v = v + a * kick
            x = x + v * drift
            x = x - box * tl.floor(x * inv_box)
            tl.store(vel_out + 3 * i + d, v, mask=m)
            tl.store(pos_out + 3 * i + d, x, mask=m)


def run(pos: torch.Tensor, vel: torch.Tensor, acc: torch.Tensor, kick: float, drift: float, box: float) -> tuple:
    n = pos.shape[0]
    pos_out = torch.empty_like(pos)
    vel_out = torch.empty_like(vel)
    grid = (min(_VECTOR_CORES, triton.cdiv(n, BLOCK)),)
    _kick_drift[grid](pos, vel, acc, pos_out, vel_out, n, kick, drift, box, 1.0 / box, BLOCK=BLOCK)
    return pos_out, vel_out
