"""HTDemucs spectrogram normalisation: per batch item (x - mean) / (1e-5 + std) over C x F x T."""
import torch
import triton
import triton.language as tl

BLOCK = 2048


@triton.jit
def _spec_norm(x, out, mean_out, std_out, n, BLOCK: tl.constexpr):
    item = tl.program_id(0)
    base = item.to(tl.int64) * n
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    acc_sq = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n, BLOCK):
        idx = start + offs
        v = tl.load(x + base + idx, mask=idx < n, other=0.0)
        acc += v
        acc_sq += v * v
    total = tl.sum(acc, axis=0)
    total_sq = tl.sum(acc_sq, axis=0)
    mean = total / n
    var = tl.maximum(total_sq - total * mean, 0.0) / (n - 1)
    std = tl.sqrt(var)
    tl.store(mean_out + item, mean)
    tl.store(std_out + item, std)
    scale = 1.0 / (1e-5 + std)
    for start in range(0, n, BLOCK):
        idx = start + offs
        ok = idx < n
        v = tl.load(x + base + idx, mask=ok, other=0.0)
        tl.store(out + base + idx, (v - mean) * scale, mask=ok)


def run(x: torch.Tensor) -> tuple:
    b = x.shape[0]
    n = x[0].numel()
    out = torch.empty_like(x)
    mean = torch.empty(b, device=x.device, dtype=torch.float32)
    std = torch.empty(b, device=x.device, dtype=torch.float32)
    _spec_norm[(b,)](x, out, mean, std, n, BLOCK=BLOCK, num_warps=8)
    return out, mean, std
