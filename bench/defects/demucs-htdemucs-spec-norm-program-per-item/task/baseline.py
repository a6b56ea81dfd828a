"""HTDemucs spectrogram normalisation: per batch item (x - mean) / (1e-5 + std) over C x F x T."""
import torch
import triton
import triton.language as tl

BLOCK = 2048
CHUNK = 16 * BLOCK


@triton.jit
def _spec_partials(x, part_sum, part_sq, n, chunk, n_chunks, BLOCK: tl.constexpr):
    item = tl.program_id(0)
    piece = tl.program_id(1)
    base = item.to(tl.int64) * n
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    acc_sq = tl.zeros([BLOCK], dtype=tl.float32)
    lo = piece * chunk
    hi = tl.minimum(lo + chunk, n)
    for start in range(lo, hi, BLOCK):
        idx = start + offs
        v = tl.load(x + base + idx, mask=idx < hi, other=0.0)
        acc += v
        acc_sq += v * v
    tl.store(part_sum + item * n_chunks + piece, tl.sum(acc, axis=0))
    tl.store(part_sq + item * n_chunks + piece, tl.sum(acc_sq, axis=0))


@triton.jit
def _spec_norm(x, out, mean_out, std_out, part_sum, part_sq, n, chunk, n_chunks,
               BLOCK: tl.constexpr, CHUNKS_POW2: tl.constexpr):
    item = tl.program_id(0)
    piece = tl.program_id(1)
    base = item.to(tl.int64) * n
    k = tl.arange(0, CHUNKS_POW2)
    total = tl.sum(tl.load(part_sum + item * n_chunks + k, mask=k < n_chunks, other=0.0), axis=0)
    total_sq = tl.sum(tl.load(part_sq + item * n_chunks + k, mask=k < n_chunks, other=0.0), axis=0)
    mean = total / n
    var = tl.maximum(total_sq - total * mean, 0.0) / (n - 1)
    std = tl.sqrt(var)
    if piece == 0:
        tl.store(mean_out + item, mean)
        tl.store(std_out + item, std)
    scale = 1.0 / (1e-5 + std)
    offs = tl.arange(0, BLOCK)
    lo = piece * chunk
    hi = tl.minimum(lo + chunk, n)
    for start in range(lo, hi, BLOCK):
        idx = start + offs
        ok = idx < hi
        v = tl.load(x + base + idx, mask=ok, other=0.0)
        tl.store(out + base + idx, (v - mean) * scale, mask=ok)


def run(x: torch.Tensor) -> tuple:
    b = x.shape[0]
    n = x[0].numel()
    n_chunks = triton.cdiv(n, CHUNK)
    out = torch.empty_like(x)
    mean = torch.empty(b, device=x.device, dtype=torch.float32)
    std = torch.empty(b, device=x.device, dtype=torch.float32)
    part_sum = torch.empty((b, n_chunks), device=x.device, dtype=torch.float32)
    part_sq = torch.empty((b, n_chunks), device=x.device, dtype=torch.float32)
    grid = (b, n_chunks)
    _spec_partials[grid](x, part_sum, part_sq, n, CHUNK, n_chunks, BLOCK=BLOCK, num_warps=8)
    _spec_norm[grid](x, out, mean, std, part_sum, part_sq, n, CHUNK, n_chunks,
                     BLOCK=BLOCK, CHUNKS_POW2=triton.next_power_of_2(n_chunks), num_warps=8)
    return out, mean, std
