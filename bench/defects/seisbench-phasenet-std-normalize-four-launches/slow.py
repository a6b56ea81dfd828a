"""SeisBench PhaseNet annotate_batch_pre (norm="std"): demean, then divide by the std, per trace."""
import torch
import triton
import triton.language as tl

BLOCK = 1024  # elementwise tile


@triton.jit
def _row_mean(x, mean, n, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    ok = cols < n
    v = tl.load(x + row * n + cols, mask=ok, other=0.0)
    tl.store(mean + row, tl.sum(v, axis=0) / n)


@triton.jit
def _subtract_mean(x, mean, y, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    ok = cols < n
    mu = tl.load(mean + row)
    v = tl.load(x + row * n + cols, mask=ok, other=0.0)
    tl.store(y + row * n + cols, v - mu, mask=ok)


@triton.jit
def _row_std(y, std, n, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    ok = cols < n
    v = tl.load(y + row * n + cols, mask=ok, other=0.0)
    mu = tl.sum(v, axis=0) / n
    d = tl.where(ok, v - mu, 0.0)
    tl.store(std + row, tl.sqrt(tl.sum(d * d, axis=0) / (n - 1)))


@triton.jit
def _divide_std(y, std, out, n, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    ok = cols < n
    s = tl.load(std + row)
    v = tl.load(y + row * n + cols, mask=ok, other=0.0)
    tl.store(out + row * n + cols, v / (s + eps), mask=ok)


def run(x: torch.Tensor) -> torch.Tensor:
    n = x.shape[-1]
    rows = x.numel() // n
    block_n = triton.next_power_of_2(n)
    mean = torch.empty(rows, device=x.device, dtype=torch.float32)
    std = torch.empty(rows, device=x.device, dtype=torch.float32)
    y = torch.empty_like(x)
    out = torch.empty_like(x)
    tiles = (rows, triton.cdiv(n, BLOCK))
    # batch = batch - batch.mean(-1, keepdim=True)
    _row_mean[(rows,)](x, mean, n, BLOCK_N=block_n, num_warps=4)
    _subtract_mean[tiles](x, mean, y, n, BLOCK=BLOCK, num_warps=4)
    # batch = batch / (batch.std(-1, keepdim=True) + 1e-10)
    _row_std[(rows,)](y, std, n, BLOCK_N=block_n, num_warps=4)
    _divide_std[tiles](y, std, out, n, 1e-10, BLOCK=BLOCK, num_warps=4)
    return out
