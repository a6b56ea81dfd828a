"""SCS second-order-cone projection (proj_soc) over the SOC block of the cone, one launch per cone."""
import torch
import triton
import triton.language as tl


@triton.jit
def _proj_one_soc(v, out, start, end, BLOCK: tl.constexpr):
    # cone v[start:end] = (t, x): project onto ||x|| <= t
    v1 = tl.load(v + start)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for k in range(start + 1, end, BLOCK):
        offs = k + tl.arange(0, BLOCK)
        x = tl.load(v + offs, mask=offs < end, other=0.0)
        acc += x * x
    s = tl.sqrt(tl.sum(acc, axis=0))
    alpha = 0.5 * (s + v1)
    inside = s <= v1
    polar = s <= -v1
    head = tl.where(inside, v1, tl.where(polar, 0.0, alpha))
    scale = tl.where(inside, 1.0, tl.where(polar, 0.0, alpha / tl.maximum(s, 1e-30)))
    tl.store(out + start, head)
    for k in range(start + 1, end, BLOCK):
        offs = k + tl.arange(0, BLOCK)
        x = tl.load(v + offs, mask=offs < end, other=0.0)
        tl.store(out + offs, x * scale, mask=offs < end)


@triton.jit
def _proj_soc_kernel(v, out, start, end, BLOCK: tl.constexpr):
    _proj_one_soc(v, out, start, end, BLOCK)


def run(v: torch.Tensor, ptr: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(v)
    bounds = ptr.tolist()
    # as SCS's proj_cone: for (i = 0; i < k->qsize; ++i) proj_soc(&x[count], k->q[i])
    for i in range(len(bounds) - 1):
        _proj_soc_kernel[(1,)](v, out, bounds[i], bounds[i + 1], BLOCK=256)
    return out
