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
def _corr_sum_partials(s_ptr, sd_ptr, part_ptr, N, stride_s, BR: tl.constexpr, BC: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    acc = tl.zeros([BR, BC], dtype=tl.float32)
    for rb in range(pid, tl.cdiv(N, BR), nprog):
        rows = rb * BR + tl.arange(0, BR)
        rmask = rows < N
        sd_r = tl.load(sd_ptr + rows, mask=rmask, other=1.0)
        for c0 in range(0, N, BC):
            cols = c0 + tl.arange(0, BC)
            cmask = cols < N
            mask = rmask[:, None] & cmask[None, :]
            s = tl.load(s_ptr + rows[:, None] * stride_s + cols[None, :], mask=mask, other=0.0)
            sd_c = tl.load(sd_ptr + cols, mask=cmask, other=1.0)
            acc += s / (sd_r[:, None] * sd_c[None, :])
    tl.store(part_ptr + pid, tl.sum(tl.sum(acc, axis=1), axis=0))


@triton.jit
def _shrink_fwd(s_ptr, sd_ptr, part_ptr, out_ptr, N, delta, stride_s, stride_o,
                npart, PB: tl.constexpr, BR: tl.constexpr, BC: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    p_off = tl.arange(0, PB)
    total = tl.sum(tl.load(part_ptr + p_off, mask=p_off < npart, other=0.0), axis=0)
    r_bar = (total - N) / (N * (N - 1.0))
    for rb in range(pid, tl.cdiv(N, BR), nprog):
        rows = rb * BR + tl.arange(0, BR)
        rmask = rows < N
        sd_r = tl.load(sd_ptr + rows, mask=rmask, other=0.0)
        for c0 in range(0, N, BC):
            cols = c0 + tl.arange(0, BC)
            cmask = cols < N
            mask = rmask[:, None] & cmask[None, :]
            s = tl.load(s_ptr + rows[:, None] * stride_s + cols[None, :], mask=mask, other=0.0)
            sd_c = tl.load(sd_ptr + cols, mask=cmask, other=0.0)
            target = tl.where(rows[:, None] == cols[None, :], s, r_bar * sd_r[:, None] * sd_c[None, :])
            tl.store(out_ptr + rows[:, None] * stride_o + cols[None, :],
                     delta * target + (1.0 - delta) * s, mask=mask)


def run(S: torch.Tensor, delta: float) -> torch.Tensor:
    N = S.shape[0]
    sd = torch.empty((N,), device=S.device, dtype=torch.float32)
    _diag_sqrt[(triton.cdiv(N, 1024),)](S, sd, N, S.stride(0), BLOCK=1024)
    out = torch.empty((N, N), device=S.device, dtype=S.dtype)
    BR, BC = 16, 256
    nprog = _VECTOR_CORES
    partials = torch.empty((nprog,), device=S.device, dtype=torch.float32)
    _corr_sum_partials[(nprog,)](S, sd, partials, N, S.stride(0), BR=BR, BC=BC)
    _shrink_fwd[(nprog,)](S, sd, partials, out, N, float(delta), S.stride(0), out.stride(0),
                          nprog, PB=triton.next_power_of_2(nprog), BR=BR, BC=BC)
    return out
