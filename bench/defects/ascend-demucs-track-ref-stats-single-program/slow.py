"""Demucs track normalisation: (wav - ref.mean()) / ref.std() with ref the mono downmix."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
BLOCK = 4096


@triton.jit
def _ref_stats(wav, stats, T, stride_c, BLOCK: tl.constexpr):
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    acc2 = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, T, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        inb = offs < T
        left = tl.load(wav + offs, mask=inb, other=0.0)
        right = tl.load(wav + stride_c + offs, mask=inb, other=0.0)
        ref = (left + right) * 0.5
        acc += ref
        acc2 += ref * ref
    s = tl.sum(acc, axis=0)
    s2 = tl.sum(acc2, axis=0)
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
    _ref_stats[(1,)](wav, stats, T, wav.stride(0), BLOCK=BLOCK)
    grid = (min(_VECTOR_CORES, triton.cdiv(T, BLOCK)),)
    _normalize[grid](wav, out, stats, T, wav.stride(0), BLOCK=BLOCK)
    return out, stats
