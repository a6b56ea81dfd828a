"""AMCL pf_update_sensor: weights *= likelihood, normalised by their sum, plus (w_avg, n_eff)."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
BLOCK = 4096


@triton.jit
def _weight_sums(w, lik, partials, N, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    acc_sq = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(pid * BLOCK, N, nprog * BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < N
        v = tl.load(w + offs, mask=mask, other=0.0) * tl.load(lik + offs, mask=mask, other=0.0)
        acc += v
        acc_sq += v * v
    tl.store(partials + pid, tl.sum(acc, axis=0))
    tl.store(partials + nprog + pid, tl.sum(acc_sq, axis=0))


@triton.jit
def _weight_scale(w, lik, w_out, partials, stats, N, NPART: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    k = tl.arange(0, NPART)
    kmask = k < nprog
    total = tl.sum(tl.load(partials + k, mask=kmask, other=0.0), axis=0)
    total_sq = tl.sum(tl.load(partials + nprog + k, mask=kmask, other=0.0), axis=0)
    inv = 1.0 / total
    for start in range(pid * BLOCK, N, nprog * BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < N
        v = tl.load(w + offs, mask=mask, other=0.0) * tl.load(lik + offs, mask=mask, other=0.0)
        tl.store(w_out + offs, v * inv, mask=mask)
    if pid == 0:
        tl.store(stats, total / N)
        tl.store(stats + 1, total * total / total_sq)


def run(weights: torch.Tensor, likelihood: torch.Tensor) -> tuple:
    n = weights.numel()
    w_out = torch.empty_like(weights)
    stats = torch.empty(2, device=weights.device, dtype=weights.dtype)
    nprog = min(_VECTOR_CORES, triton.cdiv(n, BLOCK))
    partials = torch.empty(2 * nprog, device=weights.device, dtype=torch.float32)
    _weight_sums[(nprog,)](weights, likelihood, partials, n, BLOCK=BLOCK)
    _weight_scale[(nprog,)](weights, likelihood, w_out, partials, stats, n,
                            NPART=triton.next_power_of_2(nprog), BLOCK=BLOCK)
    return w_out, stats
