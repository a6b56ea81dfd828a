"""Batch-method Monte Carlo dose: batch mean in Gy and its standard error per voxel."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
BLOCK = 4096


@triton.jit
def _accumulate_batch(edep_b, acc, acc_sq, V, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for blk in range(pid, tl.cdiv(V, BLOCK), nprog):
        offs = blk * BLOCK + tl.arange(0, BLOCK)
        ok = offs < V
        x = tl.load(edep_b + offs, mask=ok, other=0.0)
        s = tl.load(acc + offs, mask=ok, other=0.0)
        s2 = tl.load(acc_sq + offs, mask=ok, other=0.0)
        tl.store(acc + offs, s + x, mask=ok)
        tl.store(acc_sq + offs, s2 + x * x, mask=ok)


@triton.jit
def _finalize(acc, acc_sq, rho, dose, stderr, V, NB, scale, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    inv_nb = 1.0 / NB
    for blk in range(pid, tl.cdiv(V, BLOCK), nprog):
        offs = blk * BLOCK + tl.arange(0, BLOCK)
        ok = offs < V
        s = tl.load(acc + offs, mask=ok, other=0.0)
        s2 = tl.load(acc_sq + offs, mask=ok, other=0.0)
        r = tl.load(rho + offs, mask=ok, other=1.0)
        mean = s * inv_nb
        var = tl.maximum(s2 * inv_nb - mean * mean, 0.0) / (NB - 1)
        to_gy = scale / r
        tl.store(dose + offs, mean * to_gy, mask=ok)
        tl.store(stderr + offs, tl.sqrt(var) * to_gy, mask=ok)


def run(edep: torch.Tensor, rho: torch.Tensor, scale: float) -> tuple:
    NB, V = edep.shape
    acc = torch.zeros(V, device=edep.device, dtype=torch.float32)
    acc_sq = torch.zeros(V, device=edep.device, dtype=torch.float32)
    dose = torch.empty(V, device=edep.device, dtype=edep.dtype)
    stderr = torch.empty(V, device=edep.device, dtype=edep.dtype)
    grid = (min(_VECTOR_CORES, triton.cdiv(V, BLOCK)),)
    for b in range(NB):
        _accumulate_batch[grid](edep[b], acc, acc_sq, V, BLOCK=BLOCK)
    _finalize[grid](acc, acc_sq, rho, dose, stderr, V, NB, scale, BLOCK=BLOCK)
    return dose, stderr
