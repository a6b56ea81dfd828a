"""RAFT correlation pyramid: three 2x2 average-pooling levels of the [N, 1, H, W] correlation volume."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_TILE_ELEMS = 4096


@triton.jit
def _avg_pool2x2_kernel(src, dst, N, H, W, Ho, Wo, n_nblk, n_yblk, n_tiles,
                        BN: tl.constexpr, BY: tl.constexpr, BWO: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    xo = tl.arange(0, BWO)
    for t in range(pid, n_tiles, nprog):
        nb = t // n_yblk
        yb = t % n_yblk
        ns = nb * BN + tl.arange(0, BN)
        yo = yb * BY + tl.arange(0, BY)
        om = (ns < N)[:, None, None] & (yo < Ho)[None, :, None] & (xo < Wo)[None, None, :]
        p = src + ns[:, None, None] * (H * W) + (2 * yo)[None, :, None] * W + (2 * xo)[None, None, :]
        a = tl.load(p, mask=om, other=0.0)
        b = tl.load(p + 1, mask=om, other=0.0)
        c = tl.load(p + W, mask=om, other=0.0)
        d = tl.load(p + W + 1, mask=om, other=0.0)
        s = (a + b + c + d) * 0.25
        out = dst + ns[:, None, None] * (Ho * Wo) + yo[None, :, None] * Wo + xo[None, None, :]
        tl.store(out, s, mask=om)


def _pool_level(x: torch.Tensor) -> torch.Tensor:
    N, _, H, W = x.shape
    Ho, Wo = H // 2, W // 2
    y = torch.empty((N, 1, Ho, Wo), device=x.device, dtype=x.dtype)
    BWO = triton.next_power_of_2(Wo)
    BY = min(triton.next_power_of_2(Ho), max(1, _TILE_ELEMS // (2 * BWO)))
    BN = max(1, _TILE_ELEMS // (2 * BWO * BY))
    n_nblk, n_yblk = triton.cdiv(N, BN), triton.cdiv(Ho, BY)
    n_tiles = n_nblk * n_yblk
    grid = (min(_VECTOR_CORES, n_tiles),)
    _avg_pool2x2_kernel[grid](x, y, N, H, W, Ho, Wo, n_nblk, n_yblk, n_tiles, BN=BN, BY=BY, BWO=BWO)
    return y


def run(corr: torch.Tensor) -> tuple:
    levels = []
    x = corr
    for _ in range(3):
        x = _pool_level(x)
        levels.append(x)
    return tuple(levels)
