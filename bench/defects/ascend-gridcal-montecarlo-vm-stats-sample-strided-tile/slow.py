"""Monte Carlo power-flow results: per-bus mean, std and violation probability of the sampled |V|."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _vm_stats(vm, vmin, vmax, mean, std, pviol, S, NB, stride_s, inv_s,
              BB: tl.constexpr, BS: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for blk in range(pid, tl.cdiv(NB, BB), nprog):
        bus = blk * BB + tl.arange(0, BB)
        bmask = bus < NB
        lo = tl.load(vmin + bus, mask=bmask, other=0.0)
        hi = tl.load(vmax + bus, mask=bmask, other=0.0)
        x0 = tl.load(vm + bus, mask=bmask, other=0.0)      # sample 0 as the shift
        s1 = tl.zeros([BB], dtype=tl.float32)
        s2 = tl.zeros([BB], dtype=tl.float32)
        nv = tl.zeros([BB], dtype=tl.float32)
        for s0 in range(0, S, BS):
            smp = s0 + tl.arange(0, BS)
            m = bmask[:, None] & (smp < S)[None, :]
            v = tl.load(vm + smp[None, :] * stride_s + bus[:, None], mask=m, other=0.0)
            d = tl.where(m, v - x0[:, None], 0.0)
            s1 += tl.sum(d, axis=1)
            s2 += tl.sum(d * d, axis=1)
            out = m & ((v < lo[:, None]) | (v > hi[:, None]))
            nv += tl.sum(out.to(tl.float32), axis=1)
        md = s1 * inv_s
        var = tl.maximum(s2 * inv_s - md * md, 0.0)
        tl.store(mean + bus, x0 + md, mask=bmask)
        tl.store(std + bus, tl.sqrt(var), mask=bmask)
        tl.store(pviol + bus, nv * inv_s, mask=bmask)


def run(vm: torch.Tensor, vmin: torch.Tensor, vmax: torch.Tensor) -> tuple:
    S, NB = vm.shape
    mean = torch.empty(NB, device=vm.device, dtype=vm.dtype)
    std = torch.empty(NB, device=vm.device, dtype=vm.dtype)
    pviol = torch.empty(NB, device=vm.device, dtype=vm.dtype)
    BB, BS = 128, 32
    grid = (min(_VECTOR_CORES, triton.cdiv(NB, BB)),)
    _vm_stats[grid](vm, vmin, vmax, mean, std, pviol, S, NB, vm.stride(0), 1.0 / S, BB=BB, BS=BS)
    return mean, std, pviol
