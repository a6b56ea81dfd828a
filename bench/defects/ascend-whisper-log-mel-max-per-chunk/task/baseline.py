"""Whisper log-mel clamp for triton-ascend: a persistent grid over the 910B vector cores walks
(example, 8,192-float chunk) items twice: the first launch records each chunk's peak log10 value, the
second takes its example's peak from those and clamps the chunk to 8 decades below it and rescales it."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40
INV_LN10 = 0.4342944819032518


@triton.jit
def _log10_floor(x):
    return tl.log(tl.maximum(x, 1e-10)) * INV_LN10


@triton.jit
def _chunk_peak(mel_ptr, base, start, n, BLOCK: tl.constexpr):
    offs = start + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(mel_ptr + base + offs, mask=m, other=1.0)
    return tl.max(tl.where(m, _log10_floor(x), float("-inf")), axis=0)


@triton.jit
def _clamp_chunk(mel_ptr, out_ptr, base, start, n, peak, BLOCK: tl.constexpr):
    offs = start + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(mel_ptr + base + offs, mask=m, other=1.0)
    y = tl.maximum(_log10_floor(x), peak - 8.0)
    tl.store(out_ptr + base + offs, (y + 4.0) * 0.25, mask=m)


@triton.jit
def chunk_peak_kernel(mel_ptr, peaks_ptr, n, n_chunks, n_items,
                      NUM_PROGS: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    for item in range(pid, n_items, NUM_PROGS):
        b = item // n_chunks
        c = item % n_chunks
        tl.store(peaks_ptr + item, _chunk_peak(mel_ptr, b * n, c * BLOCK, n, BLOCK))


@triton.jit
def log_mel_clamp_kernel(mel_ptr, peaks_ptr, out_ptr, n, n_chunks, n_items,
                         NUM_PROGS: tl.constexpr, BLOCK: tl.constexpr, BLOCK_C: tl.constexpr):
    pid = tl.program_id(0)
    kc = tl.arange(0, BLOCK_C)
    for item in range(pid, n_items, NUM_PROGS):
        b = item // n_chunks
        c = item % n_chunks
        base = b * n
        peak = tl.max(tl.load(peaks_ptr + b * n_chunks + kc, mask=kc < n_chunks, other=float("-inf")), axis=0)
        _clamp_chunk(mel_ptr, out_ptr, base, c * BLOCK, n, peak, BLOCK)


def run(mel: torch.Tensor) -> torch.Tensor:
    batch, n_mels, n_frames = mel.shape
    n = n_mels * n_frames
    out = torch.empty_like(mel)
    block = min(8192, triton.next_power_of_2(n))
    n_chunks = triton.cdiv(n, block)
    n_items = batch * n_chunks
    num_progs = min(NUM_VECTOR_CORES, n_items)
    peaks = torch.empty(n_items, dtype=torch.float32, device=mel.device)
    launch = dict(NUM_PROGS=num_progs, BLOCK=block)
    chunk_peak_kernel[(num_progs,)](mel, peaks, n, n_chunks, n_items, **launch)
    log_mel_clamp_kernel[(num_progs,)](mel, peaks, out, n, n_chunks, n_items,
                                       BLOCK_C=triton.next_power_of_2(n_chunks), **launch)
    return out
