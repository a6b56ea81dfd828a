"""lc0 expandPlanes: (uint64 mask, value) input planes -> dense NCHW network input."""
import torch
import triton
import triton.language as tl

PLANES = 112
BLOCK_P = 32
BLOCK_CVT = 1024


@triton.jit
def _expand_planes(masks, values, out, n_planes, BLOCK_P: tl.constexpr):
    p = tl.program_id(0) * BLOCK_P + tl.arange(0, BLOCK_P)
    ok = p < n_planes
    m = tl.load(masks + p, mask=ok, other=0)
    v = tl.load(values + p, mask=ok, other=0.0)
    sq = tl.arange(0, 64)
    hit = ((m[:, None] >> sq[None, :].to(tl.int64)) & 1) != 0
    x = tl.where(hit, v[:, None], 0.0)
    tl.store(out + p[:, None] * 64 + sq[None, :], x, mask=ok[:, None])


@triton.jit
def _copy_type_converted(src, dst, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n
    x = tl.load(src + offs, mask=ok)
    tl.store(dst + offs, x.to(dst.dtype.element_ty), mask=ok)


def run(masks: torch.Tensor, values: torch.Tensor) -> torch.Tensor:
    batch = masks.shape[0]
    n_planes = batch * PLANES
    planes = torch.empty(batch, PLANES, 8, 8, device=masks.device, dtype=torch.float32)
    _expand_planes[(triton.cdiv(n_planes, BLOCK_P),)](masks, values, planes, n_planes,
                                                       BLOCK_P=BLOCK_P, num_warps=4)
    # the network runs in fp16: convert the expanded fp32 planes
    out = torch.empty(batch, PLANES, 8, 8, device=masks.device, dtype=torch.float16)
    n = planes.numel()
    _copy_type_converted[(triton.cdiv(n, BLOCK_CVT),)](planes, out, n, BLOCK=BLOCK_CVT, num_warps=4)
    return out
