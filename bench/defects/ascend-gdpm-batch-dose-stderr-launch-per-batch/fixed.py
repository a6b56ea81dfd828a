"""Batch-method Monte Carlo dose: batch mean in Gy and its standard error per voxel."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
BLOCK = 4096


@triton.jit
def _batch_dose_stderr(edep, rho, dose, stderr, V, NB, stride_b, scale, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    inv_nb = 1.0 / NB
    for blk in range(pid, tl.cdiv(V, BLOCK), nprog):
        offs = blk * BLOCK + tl.arange(0, BLOCK)
        ok = offs < V
        s = tl.zeros([BLOCK], dtype=tl.float32)
        s2 = tl.zeros([BLOCK], dtype=tl.float32)
        for b in range(0, NB):
            x = tl.load(edep + b * stride_b + offs, mask=ok, other=0.0)
            s += x
            s2 += x * x
        r = tl.load(rho + offs, mask=ok, other=1.0)
        mean = s * inv_nb
        var = tl.maximum(s2 * inv_nb - mean * mean, 0.0) / (NB - 1)
        to_gy = scale / r
        tl.store(dose + offs, mean * to_gy, mask=ok)
        tl.store(stderr + offs, tl.sqrt(var) * to_gy, mask=ok)


def run(edep: torch.Tensor, rho: torch.Tensor, scale: float) -> tuple:
    NB, V = edep.shape
    dose = torch.empty(V, device=edep.device, dtype=edep.dtype)
    stderr = torch.empty(V, device=edep.device, dtype=edep.dtype)
    grid = (min(_VECTOR_CORES, triton.cdiv(V, BLOCK)),)
    _batch_dose_stderr[grid](edep, rho, dose, stderr, V, NB, edep.stride(0), scale, BLOCK=BLOCK)
    return dose, stderr
