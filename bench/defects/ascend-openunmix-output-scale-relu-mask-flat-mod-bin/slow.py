"""Open-Unmix output stage: relu(x * output_scale + output_mean) * mix, per-bin parameters."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
BLOCK = 4096


@triton.jit
def _umx_output_mask(x, mix, scale, mean, out, n, n_bins, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for blk in range(pid, tl.cdiv(n, BLOCK), nprog):
        offs = blk * BLOCK + tl.arange(0, BLOCK)
        inb = offs < n
        f = offs % n_bins
        s = tl.load(scale + f, mask=inb, other=0.0)
        b = tl.load(mean + f, mask=inb, other=0.0)
        v = tl.load(x + offs, mask=inb, other=0.0)
        a = tl.load(mix + offs, mask=inb, other=0.0)
        y = tl.maximum(v * s + b, 0.0) * a
        tl.store(out + offs, y, mask=inb)


def run(x: torch.Tensor, mix: torch.Tensor, output_scale: torch.Tensor,
        output_mean: torch.Tensor) -> torch.Tensor:
    n_bins = x.shape[-1]
    n = x.numel()
    out = torch.empty_like(x)
    grid = (min(_VECTOR_CORES, triton.cdiv(n, BLOCK)),)
    _umx_output_mask[grid](x, mix, output_scale, output_mean, out, n, n_bins, BLOCK=BLOCK)
    return out
