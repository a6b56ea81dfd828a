"""Trilinear devoxelization (torchsparse spdevoxelize): out[p] = sum_k weight[p, k] * feat[idx[p, k]]."""
import torch
import triton
import triton.language as tl

BLOCK = 2048
_VECTOR_CORES = 40  # Atlas A2 (910B)


@triton.jit
def _devoxelize(feat, idx, weight, out, P, C, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    total = P * C
    for blk in range(pid, tl.cdiv(total, BLOCK), nprog):
        # one lane per output element, as the CUDA kernel's thread index: point i, channel j
        e = blk * BLOCK + tl.arange(0, BLOCK)
        emask = e < total
        i = e // C
        j = e % C
        acc = tl.zeros([BLOCK], dtype=tl.float32)
        for k in tl.static_range(8):
            v = tl.load(idx + i * 8 + k, mask=emask, other=-1)
            w = tl.load(weight + i * 8 + k, mask=emask, other=0.0)
            hit = v >= 0
            f = tl.load(feat + tl.maximum(v, 0) * C + j, mask=emask & hit, other=0.0)
            acc += w * f
        tl.store(out + e, acc, mask=emask)


def run(feat: torch.Tensor, idx: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    P = idx.shape[0]
    C = feat.shape[1]
    out = torch.empty((P, C), device=feat.device, dtype=feat.dtype)
    grid = (min(_VECTOR_CORES, triton.cdiv(P * C, BLOCK)),)
    _devoxelize[grid](feat, idx, weight, out, P, C, BLOCK=BLOCK)
    return out
