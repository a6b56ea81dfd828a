"""nvdiffrast interpolate (forward): blend the three vertex attributes of each pixel's triangle by (u, v, 1-u-v)."""
import torch
import triton
import triton.language as tl


@triton.jit
def _interpolate_fwd(rast, tri, attr, out, A: tl.constexpr, BLOCK_A: tl.constexpr):
    pix = tl.program_id(0)
    u = tl.load(rast + pix * 4)
    v = tl.load(rast + pix * 4 + 1)
    tid = tl.load(rast + pix * 4 + 3).to(tl.int32)
    hit = tid > 0
    t = tl.maximum(tid - 1, 0)
    i0 = tl.load(tri + t * 3, mask=hit, other=0)
    i1 = tl.load(tri + t * 3 + 1, mask=hit, other=0)
    i2 = tl.load(tri + t * 3 + 2, mask=hit, other=0)
    a = tl.arange(0, BLOCK_A)
    a_ok = a < A
    m = a_ok & hit
    a0 = tl.load(attr + i0 * A + a, mask=m, other=0.0)
    a1 = tl.load(attr + i1 * A + a, mask=m, other=0.0)
    a2 = tl.load(attr + i2 * A + a, mask=m, other=0.0)
    val = u * a0 + v * a1 + (1.0 - u - v) * a2
    tl.store(out + pix * A + a, val, mask=a_ok)


def run(rast: torch.Tensor, tri: torch.Tensor, attr: torch.Tensor) -> torch.Tensor:
    n, h, w, _ = rast.shape
    n_attr = attr.shape[1]
    out = torch.empty(n, h, w, n_attr, device=rast.device, dtype=rast.dtype)
    n_pix = n * h * w
    # one program per pixel, as nvdiffrast's InterpolateFwdKernel runs one thread per pixel
    _interpolate_fwd[(n_pix,)](rast, tri, attr, out, A=n_attr, BLOCK_A=triton.next_power_of_2(n_attr))
    return out
