"""PCM RMS gain normalisation: chunked sums of squares, then a scaling pass, both reading the int16 samples."""
import torch
import triton
import triton.language as tl

TARGET_RMS = 0.1
EPS = 1e-5
PCM_SCALE = 1.0 / 32768.0


@triton.jit
def _load_samples(row_ptr, offs, mask, scale):
    return tl.load(row_ptr + offs, mask=mask, other=0).to(tl.float32) * scale


@triton.jit
def chunk_sumsq_kernel(x_ptr, part_ptr, T, n_chunks, scale, CHUNK: tl.constexpr):
    b = tl.program_id(0)
    k = tl.program_id(1)
    offs = k * CHUNK + tl.arange(0, CHUNK)
    x = _load_samples(x_ptr + b.to(tl.int64) * T, offs, offs < T, scale)
    tl.store(part_ptr + b * n_chunks + k, tl.sum(x * x, axis=0))


@triton.jit
def apply_gain_kernel(x_ptr, part_ptr, out_ptr, T, n_chunks, scale, target, eps,
                      CHUNK: tl.constexpr, BLOCK_P: tl.constexpr):
    b = tl.program_id(0)
    k = tl.program_id(1)
    p = tl.arange(0, BLOCK_P)
    sumsq = tl.sum(tl.load(part_ptr + b * n_chunks + p, mask=p < n_chunks, other=0.0), axis=0)
    rms = tl.sqrt(sumsq / T)
    gain = target / tl.maximum(rms, eps)
    offs = k * CHUNK + tl.arange(0, CHUNK)
    m = offs < T
    x = _load_samples(x_ptr + b.to(tl.int64) * T, offs, m, scale)
    tl.store(out_ptr + b.to(tl.int64) * T + offs, x * gain, mask=m)


def run(pcm: torch.Tensor) -> torch.Tensor:
    B, T = pcm.shape
    CHUNK = 4096
    n_chunks = triton.cdiv(T, CHUNK)
    partials = torch.empty((B, n_chunks), device=pcm.device, dtype=torch.float32)
    out = torch.empty((B, T), device=pcm.device, dtype=torch.float32)
    grid = (B, n_chunks)
    chunk_sumsq_kernel[grid](pcm, partials, T, n_chunks, PCM_SCALE, CHUNK=CHUNK, num_warps=8)
    apply_gain_kernel[grid](pcm, partials, out, T, n_chunks, PCM_SCALE, TARGET_RMS, EPS,
                            CHUNK=CHUNK, BLOCK_P=triton.next_power_of_2(n_chunks), num_warps=8)
    return out
