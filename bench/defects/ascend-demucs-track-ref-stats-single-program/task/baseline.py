"""Demucs track normalisation: (wav - ref.mean()) / ref.std() with ref the mono downmix."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
BLOCK = 4096


@triton.jit
def _ref_partials(wav, partials, T, stride_c, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    acc2 = tl.zeros([BLOCK], dtype=tl.float32)
    for blk in range(pid, tl.cdiv(T, BLOCK), nprog):
        offs = blk * BLOCK + tl.arange(0, BLOCK)
        inb = offs < T
        left = tl.load(wav + offs, mask=inb, other=0.0)
        right = tl.load(wav + stride_c + offs, mask=inb, other=0.0)
        ref = (left + right) * 0.5
        acc += ref
        acc2 += ref * ref
    tl.store(partials + pid, tl.sum(acc, axis=0))
    tl.store(partials + nprog + pid, tl.sum(acc2, axis=0))


@triton.jit
def _ref_stats(partials, stats, T, n_part, PART: tl.constexpr):
    k = tl.arange(0, PART)
    ok = k < n_part
    s = tl.sum(tl.load(partials + k, mask=ok, other=0.0), axis=0)
    s2 = tl.sum(tl.load(partials + n_part + k, mask=ok, other=0.0), axis=0)
    mean = s / T
    var = (s2 - s * mean) / (T - 1)
    tl.store(stats, mean)
    tl.store(stats + 1, tl.sqrt(var))


@triton.jit
def _normalize(wav, out, stats, T, stride_c, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    mean = tl.load(stats)
    std = tl.load(stats + 1)
    for blk in range(pid, tl.cdiv(T, BLOCK), nprog):
        offs = blk * BLOCK + tl.arange(0, BLOCK)
        inb = offs < T
        left = tl.load(wav + offs, mask=inb, other=0.0)
        right = tl.load(wav + stride_c + offs, mask=inb, other=0.0)
        tl.store(out + offs, (left - mean) / std, mask=inb)
        tl.store(out + stride_c + offs, (right - mean) / std, mask=inb)


def run(wav: torch.Tensor) -> tuple:
    T = wav.shape[1]
    out = torch.empty_like(wav)
    stats = torch.empty(2, device=wav.device, dtype=torch.float32)
    grid = (min(_VECTOR_CORES, triton.cdiv(T, BLOCK)),)
    partials = torch.empty(2 * grid[0], device=wav.device, dtype=torch.float32)
    _ref_partials[grid](wav, partials, T, wav.stride(0), BLOCK=BLOCK)
    _ref_stats[(1,)](partials, stats, T, grid[0], PART=triton.next_power_of_2(grid[0]))
    _normalize[grid](wav, out, stats, T, wav.stride(0), BLOCK=BLOCK)
    return out, stats
