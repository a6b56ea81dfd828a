"""SCS second-order-cone projection (proj_soc) over the SOC block of the cone, one launch."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


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
def _proj_soc_kernel(v, out, ptr, n_cones, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for c in range(pid, n_cones, nprog):
        start = tl.load(ptr + c)
        end = tl.load(ptr + c + 1)
        _proj_one_soc(v, out, start, end, BLOCK)


def run(v: torch.Tensor, ptr: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(v)
    n_cones = ptr.shape[0] - 1
    grid = (min(_VECTOR_CORES, n_cones),)
    _proj_soc_kernel[grid](v, out, ptr, n_cones, BLOCK=256)
    return out
