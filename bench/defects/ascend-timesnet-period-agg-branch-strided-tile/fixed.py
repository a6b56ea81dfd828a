"""TimesNet top-k period aggregation: x + softmax(amplitudes)-weighted sum of the K branch outputs."""
import torch
import triton
import triton.language as tl


@triton.jit
def _period_agg(res, pw, x, out, TN, tiles_per_b, n_tiles, stride_k,
                K: tl.constexpr, KP: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    kk = tl.arange(0, KP)
    lane = tl.arange(0, BLOCK)
    for tile in range(pid, n_tiles, nprog):
        b = tile // tiles_per_b
        offs = (tile - b * tiles_per_b) * BLOCK + lane
        inb = offs < TN
        logit = tl.load(pw + b * K + kk, mask=kk < K, other=float("-inf"))
        top = tl.max(logit, axis=0)
        den = tl.sum(tl.exp(logit - top), axis=0)
        base = b * TN
        acc = tl.load(x + base + offs, mask=inb, other=0.0)
        for i in tl.static_range(K):
            wi = tl.exp(tl.load(pw + b * K + i) - top) / den
            acc += wi * tl.load(res + i * stride_k + base + offs, mask=inb, other=0.0)
        tl.store(out + base + offs, acc, mask=inb)


def run(res: torch.Tensor, period_weight: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    K, B, T, N = res.shape
    out = torch.empty_like(x)
    BLOCK = 1024
    tiles_per_b = triton.cdiv(T * N, BLOCK)
    n_tiles = B * tiles_per_b
    grid = (min(40, n_tiles),)
    _period_agg[grid](res, period_weight, x, out, T * N, tiles_per_b, n_tiles, res.stride(0),
                      K=K, KP=triton.next_power_of_2(K), BLOCK=BLOCK)
    return out
