"""DGCNN knn pairwise distance: each program takes a 32 x 32 block of point pairs and accumulates the inner
products over the channels 8 at a time with a [32, 8, 32] broadcast multiply and tl.sum."""
import torch
import triton
import triton.language as tl


@triton.jit
def _load_features(base, c, pts, C, N):
    # [len(c), len(pts)] tile of the channels-first features, fp32
    mask = (c < C)[:, None] & (pts < N)[None, :]
    return tl.load(base + c[:, None] * N + pts[None, :], mask=mask, other=0.0).to(tl.float32)


@triton.jit
def pairwise_distance_kernel(x_ptr, out_ptr, C, N,
                             BLOCK_I: tl.constexpr, BLOCK_J: tl.constexpr, BLOCK_C: tl.constexpr):
    i = tl.program_id(0) * BLOCK_I + tl.arange(0, BLOCK_I)
    j = tl.program_id(1) * BLOCK_J + tl.arange(0, BLOCK_J)
    b = tl.program_id(2)
    base = x_ptr + b * C * N
    inner = tl.zeros([BLOCK_I, BLOCK_J], dtype=tl.float32)
    xx_i = tl.zeros([BLOCK_I], dtype=tl.float32)
    xx_j = tl.zeros([BLOCK_J], dtype=tl.float32)
    for c0 in range(0, C, BLOCK_C):
        c = c0 + tl.arange(0, BLOCK_C)
        xi = tl.trans(_load_features(base, c, i, C, N))      # [BLOCK_I, BLOCK_C]
        xj = _load_features(base, c, j, C, N)                # [BLOCK_C, BLOCK_J]
        inner += tl.sum(xi[:, :, None] * xj[None, :, :], axis=1)
        xx_i += tl.sum(xi * xi, axis=1)
        xx_j += tl.sum(xj * xj, axis=0)
    dist = 2.0 * inner - xx_i[:, None] - xx_j[None, :]
    mask = (i < N)[:, None] & (j < N)[None, :]
    tl.store(out_ptr + b * N * N + i[:, None] * N + j[None, :], dist, mask=mask)


def pairwise_distance(x: torch.Tensor) -> torch.Tensor:
    B, C, N = x.shape
    out = torch.empty((B, N, N), dtype=torch.float32, device=x.device)
    BLOCK = 32
    grid = (triton.cdiv(N, BLOCK), triton.cdiv(N, BLOCK), B)
    pairwise_distance_kernel[grid](x, out, C, N, BLOCK_I=BLOCK, BLOCK_J=BLOCK, BLOCK_C=8)
    return out


def run(x: torch.Tensor) -> torch.Tensor:
    return pairwise_distance(x)
