"""Whisper log-mel clamp for triton-ascend: a persistent grid over the 910B vector cores walks
(example, 8,192-float chunk) items; each item gets its example's peak log10 value, then clamps the
chunk to 8 decades below that peak and rescales it."""
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
def log_mel_clamp_kernel(mel_ptr, out_ptr, n, n_chunks, n_items,
                         NUM_PROGS: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    for item in range(pid, n_items, NUM_PROGS):
        b = item // n_chunks
        c = item % n_chunks
        base = b * n
        peak = _chunk_peak(mel_ptr, base, 0, n, BLOCK)
        for k in range(1, n_chunks):
            peak = tl.maximum(peak, _chunk_peak(mel_ptr, base, k * BLOCK, n, BLOCK))
        _clamp_chunk(mel_ptr, out_ptr, base, c * BLOCK, n, peak, BLOCK)


def run(mel: torch.Tensor) -> torch.Tensor:
    batch, n_mels, n_frames = mel.shape
    n = n_mels * n_frames
    out = torch.empty_like(mel)
    block = min(8192, triton.next_power_of_2(n))
    n_chunks = triton.cdiv(n, block)
    n_items = batch * n_chunks
    num_progs = min(NUM_VECTOR_CORES, n_items)
    launch = dict(NUM_PROGS=num_progs, BLOCK=block)
    log_mel_clamp_kernel[(num_progs,)](mel, out, n, n_chunks, n_items, **launch)
    return out
