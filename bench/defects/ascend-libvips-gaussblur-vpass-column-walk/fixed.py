"""libvips convsep, vertical pass: out[y] = sum_t mask[t] * src[y + t] over an edge-extended float image."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _convsep_v(src, mask, dst, H, C, stride_s, stride_d,
               NTAPS: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    lanes = tl.arange(0, BLOCK)
    for y in range(pid, H, nprog):
        for x0 in range(0, C, BLOCK):
            xs = x0 + lanes
            m = xs < C
            acc = tl.zeros([BLOCK], dtype=tl.float32)
            for t in range(NTAPS):
                w = tl.load(mask + t)
                v = tl.load(src + (y + t) * stride_s + xs, mask=m, other=0.0)
                acc += w * v
            tl.store(dst + y * stride_d + xs, acc, mask=m)


def run(src: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    ntaps = mask.shape[0]
    hs, w, bands = src.shape
    h = hs - ntaps + 1
    c = w * bands
    out = torch.empty((h, w, bands), device=src.device, dtype=src.dtype)
    BLOCK = min(1024, triton.next_power_of_2(c))
    grid = (min(_VECTOR_CORES, h),)
    _convsep_v[grid](src, mask, out, h, c, c, c, NTAPS=ntaps, BLOCK=BLOCK)
    return out
