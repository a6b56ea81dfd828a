"""Icepack ice strength (Rothrock 1975, exponential participation and redistribution) per CICE T cell."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _ice_strength_kernel(aice0_ptr, aicen_ptr, vicen_ptr, out_ptr, ncell,
                         NCAT: tl.constexpr, BLOCK: tl.constexpr):
    puny = 1.0e-11
    astari = 20.0                    # 1 / astar
    xtmp = 1.0000000020611537        # 1 / (1 - exp(-1/astar))
    maxraft = 1.0
    mu_rdg = 3.0
    cfcp = 8120.193410409358         # Cf * Cp = 17 * g/2 (rhow - rhoi) rhoi/rhow
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for blk in range(pid, tl.cdiv(ncell, BLOCK), nprog):
        offs = blk * BLOCK + tl.arange(0, BLOCK)
        m = offs < ncell
        a0 = tl.load(aice0_ptr + offs, mask=m, other=1.0)
        g0 = tl.where(a0 > puny, a0, 0.0)
        # Gsum(ncat): open water plus the categories that take part
        total = g0
        for n in tl.static_range(NCAT):
            an = tl.load(aicen_ptr + n * ncell + offs, mask=m, other=0.0)
            total += tl.where(an > puny, an, 0.0)
        work = tl.where(total > 0.0, 1.0 / tl.where(total > 0.0, total, 1.0), 1.0)
        # apartic(0) = exp(-Gsum(-1)/astar) - exp(-Gsum(0)/astar), scaled by xtmp
        e_prev = tl.exp(-(g0 * work) * astari) * xtmp
        aksum = xtmp - e_prev
        gcum = g0
        pe = tl.zeros([BLOCK], dtype=tl.float32)
        for n in tl.static_range(NCAT):
            an = tl.load(aicen_ptr + n * ncell + offs, mask=m, other=0.0)
            vn = tl.load(vicen_ptr + n * ncell + offs, mask=m, other=0.0)
            pos = an > puny
            gcum += tl.where(pos, an, 0.0)
            e_n = tl.exp(-(gcum * work) * astari) * xtmp
            apartic = e_prev - e_n
            e_prev = e_n
            hi = tl.where(pos, vn / tl.where(pos, an, 1.0), 1.0)
            hic = tl.maximum(hi, puny)
            hrmin = tl.minimum(2.0 * hic, hic + maxraft)
            hrexp = mu_rdg * tl.sqrt(hic)
            krdg = tl.where(pos, (hrmin + hrexp) / hic, 1.0)
            aksum += apartic * (1.0 - 1.0 / krdg)
            h2rdg = hrmin * hrmin + 2.0 * hrmin * hrexp + 2.0 * hrexp * hrexp
            dh2rdg = -hi * hi + h2rdg / krdg
            pe += tl.where(pos & (apartic > 0.0), apartic * dh2rdg, 0.0)
        tl.store(out_ptr + offs, cfcp * pe / aksum, mask=m)


def run(aice0: torch.Tensor, aicen: torch.Tensor, vicen: torch.Tensor) -> torch.Tensor:
    ncat, ncell = aicen.shape
    strength = torch.empty(ncell, device=aice0.device, dtype=aice0.dtype)
    BLOCK = 1024
    grid = (min(_VECTOR_CORES, triton.cdiv(ncell, BLOCK)),)
    _ice_strength_kernel[grid](aice0, aicen, vicen, strength, ncell, NCAT=ncat, BLOCK=BLOCK)
    return strength
