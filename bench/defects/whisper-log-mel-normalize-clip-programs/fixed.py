"""Whisper log-mel normalisation: each clip split over many programs (chunk maxima, then normalise)."""
import torch
import triton
import triton.language as tl


@triton.jit
def chunk_max_kernel(x_ptr, part_ptr, per_clip, n_chunks, BLOCK: tl.constexpr):
    b = tl.program_id(0)
    c = tl.program_id(1)
    offs = c * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + b.to(tl.int64) * per_clip + offs, mask=offs < per_clip, other=float("-inf"))
    tl.store(part_ptr + b * n_chunks + c, tl.max(x, axis=0))


@triton.jit
def normalize_kernel(x_ptr, part_ptr, out_ptr, per_clip, n_chunks, BLOCK: tl.constexpr, BLOCK_P: tl.constexpr):
    b = tl.program_id(0)
    c = tl.program_id(1)
    offs_p = tl.arange(0, BLOCK_P)
    parts = tl.load(part_ptr + b * n_chunks + offs_p, mask=offs_p < n_chunks, other=float("-inf"))
    floor = tl.max(parts, axis=0) - 8.0
    offs = c * BLOCK + tl.arange(0, BLOCK)
    m = offs < per_clip
    base = b.to(tl.int64) * per_clip
    x = tl.load(x_ptr + base + offs, mask=m, other=0.0)
    tl.store(out_ptr + base + offs, (tl.maximum(x, floor) + 4.0) / 4.0, mask=m)


def run(log_spec: torch.Tensor) -> torch.Tensor:
    B = log_spec.shape[0]
    per_clip = log_spec[0].numel()
    out = torch.empty_like(log_spec)
    BLOCK = 4096
    n_chunks = triton.cdiv(per_clip, BLOCK)
    partials = torch.empty((B, n_chunks), device=log_spec.device, dtype=torch.float32)
    chunk_max_kernel[(B, n_chunks)](log_spec, partials, per_clip, n_chunks, BLOCK=BLOCK, num_warps=4)
    normalize_kernel[(B, n_chunks)](log_spec, partials, out, per_clip, n_chunks, BLOCK=BLOCK,
                                    BLOCK_P=triton.next_power_of_2(n_chunks), num_warps=4)
    return out
