"""Anomaly Transformer association discrepancy: symmetric KL between series attention and the Gaussian prior."""
import torch
import triton
import triton.language as tl


@triton.jit
def _assoc_discrepancy(series, sigma, out, B, L,
                       E: tl.constexpr, H: tl.constexpr, BLOCK_L: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    cols = tl.arange(0, BLOCK_L)
    colf = cols.to(tl.float32)
    for pos in range(pid, B * L, nprog):
        b = pos // L
        i = pos - b * L
        d = colf - i.to(tl.float32)
        half_d2 = -0.5 * d * d
        acc = 0.0
        for eh in range(E * H):
            e = eh // H
            plane = (e * B + b) * H + (eh - e * H)
            s = tl.load(series + plane * L * L + i * L + cols, mask=cols < L, other=0.0)
            sg = tl.load(sigma + plane * L + i)
            g = tl.exp(half_d2 / (sg * sg))
            g = tl.where(colf < L, g, 0.0)
            p = g / tl.sum(g, axis=0)
            acc += tl.sum((s - p) * (tl.log(s + 1e-4) - tl.log(p + 1e-4)), axis=0)
        tl.store(out + pos, acc / H)


def run(series: torch.Tensor, sigma: torch.Tensor) -> torch.Tensor:
    E, B, H, L, _ = series.shape
    out = torch.empty((B, L), device=series.device, dtype=torch.float32)
    grid = (min(40, B * L),)
    _assoc_discrepancy[grid](series, sigma, out, B, L,
                             E=E, H=H, BLOCK_L=triton.next_power_of_2(L))
    return out
