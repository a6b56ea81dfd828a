"""Open-Unmix output stage: relu(x * output_scale + output_mean) * mix, per-bin parameters."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
BLOCK_R = 8
BLOCK_F = 1024


@triton.jit
def _umx_output_mask(x, mix, scale, mean, out, n_rows, n_bins,
                     BLOCK_R: tl.constexpr, BLOCK_F: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for rb in range(pid, tl.cdiv(n_rows, BLOCK_R), nprog):
        rows = rb * BLOCK_R + tl.arange(0, BLOCK_R)
        rmask = rows < n_rows
        for f0 in range(0, n_bins, BLOCK_F):
            f = f0 + tl.arange(0, BLOCK_F)
            fmask = f < n_bins
            s = tl.load(scale + f, mask=fmask, other=0.0)
            b = tl.load(mean + f, mask=fmask, other=0.0)
            offs = rows[:, None] * n_bins + f[None, :]
            inb = rmask[:, None] & fmask[None, :]
            v = tl.load(x + offs, mask=inb, other=0.0)
            a = tl.load(mix + offs, mask=inb, other=0.0)
            y = tl.maximum(v * s[None, :] + b[None, :], 0.0) * a
            tl.store(out + offs, y, mask=inb)


def run(x: torch.Tensor, mix: torch.Tensor, output_scale: torch.Tensor,
        output_mean: torch.Tensor) -> torch.Tensor:
    n_bins = x.shape[-1]
    n_rows = x.numel() // n_bins
    out = torch.empty_like(x)
    grid = (min(_VECTOR_CORES, triton.cdiv(n_rows, BLOCK_R)),)
    _umx_output_mask[grid](x, mix, output_scale, output_mean, out, n_rows, n_bins,
                           BLOCK_R=BLOCK_R, BLOCK_F=BLOCK_F)
    return out
