"""Trilinear devoxelization (torchsparse spdevoxelize): out[p] = sum_k weight[p, k] * feat[idx[p, k]]."""
import torch
import triton
import triton.language as tl

BLOCK_P = 32
_VECTOR_CORES = 40  # Atlas A2 (910B)


@triton.jit
def _devoxelize(feat, idx, weight, out, P, C, BP: tl.constexpr, BC: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    j = tl.arange(0, BC)
    cmask = j < C
    for blk in range(pid, tl.cdiv(P, BP), nprog):
        # a block of points, each with its whole contiguous feature row
        i = blk * BP + tl.arange(0, BP)
        pmask = i < P
        acc = tl.zeros([BP, BC], dtype=tl.float32)
        for k in tl.static_range(8):
            v = tl.load(idx + i * 8 + k, mask=pmask, other=-1)
            w = tl.load(weight + i * 8 + k, mask=pmask, other=0.0)
            hit = v >= 0
            f = tl.load(feat + tl.maximum(v, 0)[:, None] * C + j[None, :],
                        mask=(pmask & hit)[:, None] & cmask[None, :], other=0.0)
            acc += w[:, None] * f
        tl.store(out + i[:, None] * C + j[None, :], acc, mask=pmask[:, None] & cmask[None, :])


def run(feat: torch.Tensor, idx: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    P = idx.shape[0]
    C = feat.shape[1]
    out = torch.empty((P, C), device=feat.device, dtype=feat.dtype)
    grid = (min(_VECTOR_CORES, triton.cdiv(P, BLOCK_P)),)
    _devoxelize[grid](feat, idx, weight, out, P, C, BP=BLOCK_P, BC=triton.next_power_of_2(C))
    return out
