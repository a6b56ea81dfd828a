"""Mean-b0 normalisation: clip each voxel's signal to min_signal and divide it by its mean b0 signal."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
BV = 8


@triton.jit
def _normalize_b0(data, where_b0, out, N, G, n_b0, min_signal, stride_d, stride_o,
                  BV: tl.constexpr, BG: tl.constexpr, BB: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    cols = tl.arange(0, BG)
    cmask = cols < G
    b = tl.arange(0, BB)
    bmask = b < n_b0
    b0_cols = tl.load(where_b0 + b, mask=bmask, other=-1)
    hit = cols.to(tl.float32)[:, None] == b0_cols.to(tl.float32)[None, :]
    w_b0 = tl.sum(tl.where(hit, 1.0, 0.0), axis=1) / n_b0
    for blk in range(pid, tl.cdiv(N, BV), nprog):
        rows = blk * BV + tl.arange(0, BV)
        rmask = rows < N
        mask = rmask[:, None] & cmask[None, :]
        x = tl.load(data + rows[:, None] * stride_d + cols[None, :], mask=mask, other=0.0)
        x = tl.maximum(x, min_signal)
        mean_b0 = tl.sum(x * w_b0[None, :], axis=1)
        y = x / mean_b0[:, None]
        tl.store(out + rows[:, None] * stride_o + cols[None, :], y, mask=mask)


def run(data: torch.Tensor, where_b0: torch.Tensor, min_signal: float) -> torch.Tensor:
    N, G = data.shape
    n_b0 = where_b0.shape[0]
    out = torch.empty((N, G), device=data.device, dtype=torch.float32)
    grid = (min(_VECTOR_CORES, triton.cdiv(N, BV)),)
    _normalize_b0[grid](data, where_b0, out, N, G, n_b0, min_signal, data.stride(0), out.stride(0),
                        BV=BV, BG=triton.next_power_of_2(G), BB=triton.next_power_of_2(n_b0))
    return out
