"""Constant-correlation Ledoit-Wolf shrinkage: r_bar from S / (sigma sigma^T), then delta F + (1 - delta) S."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _diag_sqrt(s_ptr, sd_ptr, N, stride_s, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    var = tl.load(s_ptr + offs * (stride_s + 1), mask=mask, other=1.0)
    tl.store(sd_ptr + offs, tl.sqrt(var), mask=mask)


@triton.jit
def _corr_sum_partials(s_ptr, sd_ptr, part_ptr, N, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for blk in range(pid, tl.cdiv(N * N, BLOCK), nprog):
        idx = blk * BLOCK + tl.arange(0, BLOCK)
        mask = idx < N * N
        i = idx // N
        j = idx % N
        s = tl.load(s_ptr + idx, mask=mask, other=0.0)
        sd_i = tl.load(sd_ptr + i, mask=mask, other=1.0)
        sd_j = tl.load(sd_ptr + j, mask=mask, other=1.0)
        acc += s / (sd_i * sd_j)
    tl.store(part_ptr + pid, tl.sum(acc, axis=0))


@triton.jit
def _shrink_fwd(s_ptr, sd_ptr, part_ptr, out_ptr, N, delta,
                npart, PB: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    p_off = tl.arange(0, PB)
    total = tl.sum(tl.load(part_ptr + p_off, mask=p_off < npart, other=0.0), axis=0)
    r_bar = (total - N) / (N * (N - 1.0))
    for blk in range(pid, tl.cdiv(N * N, BLOCK), nprog):
        idx = blk * BLOCK + tl.arange(0, BLOCK)
        mask = idx < N * N
        i = idx // N
        j = idx % N
        s = tl.load(s_ptr + idx, mask=mask, other=0.0)
        sd_i = tl.load(sd_ptr + i, mask=mask, other=0.0)
        sd_j = tl.load(sd_ptr + j, mask=mask, other=0.0)
        target = tl.where(i == j, s, r_bar * sd_i * sd_j)
        tl.store(out_ptr + idx, delta * target + (1.0 - delta) * s, mask=mask)


def run(S: torch.Tensor, delta: float) -> torch.Tensor:
    N = S.shape[0]
    sd = torch.empty((N,), device=S.device, dtype=torch.float32)
    _diag_sqrt[(triton.cdiv(N, 1024),)](S, sd, N, S.stride(0), BLOCK=1024)
    out = torch.empty((N, N), device=S.device, dtype=S.dtype)
    BLOCK = 4096
    nprog = _VECTOR_CORES
    partials = torch.empty((nprog,), device=S.device, dtype=torch.float32)
    _corr_sum_partials[(nprog,)](S, sd, partials, N, BLOCK=BLOCK)
    _shrink_fwd[(nprog,)](S, sd, partials, out, N, float(delta),
                          nprog, PB=triton.next_power_of_2(nprog), BLOCK=BLOCK)
    return out
