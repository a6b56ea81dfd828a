"""nvdiffrast interpolate (forward): blend the three vertex attributes of each pixel's triangle by (u, v, 1-u-v)."""
import torch
import triton
import triton.language as tl

BLOCK_P = 128


@triton.jit
def _interpolate_fwd(rast, tri, attr, out, n_pix, A: tl.constexpr, BLOCK_A: tl.constexpr, BLOCK_P: tl.constexpr):
    pix = tl.program_id(0) * BLOCK_P + tl.arange(0, BLOCK_P)
    ok = pix < n_pix
    u = tl.load(rast + pix * 4, mask=ok, other=0.0)
    v = tl.load(rast + pix * 4 + 1, mask=ok, other=0.0)
    tid = tl.load(rast + pix * 4 + 3, mask=ok, other=0.0).to(tl.int32)
    hit = tid > 0
    t = tl.maximum(tid - 1, 0)
    i0 = tl.load(tri + t * 3, mask=hit, other=0)
    i1 = tl.load(tri + t * 3 + 1, mask=hit, other=0)
    i2 = tl.load(tri + t * 3 + 2, mask=hit, other=0)
    a = tl.arange(0, BLOCK_A)
    a_ok = a < A
    m = a_ok[None, :] & hit[:, None]
    a0 = tl.load(attr + i0[:, None] * A + a[None, :], mask=m, other=0.0)
    a1 = tl.load(attr + i1[:, None] * A + a[None, :], mask=m, other=0.0)
    a2 = tl.load(attr + i2[:, None] * A + a[None, :], mask=m, other=0.0)
    val = u[:, None] * a0 + v[:, None] * a1 + (1.0 - u - v)[:, None] * a2
    tl.store(out + pix[:, None] * A + a[None, :], val, mask=ok[:, None] & a_ok[None, :])


def run(rast: torch.Tensor, tri: torch.Tensor, attr: torch.Tensor) -> torch.Tensor:
    n, h, w, _ = rast.shape
    n_attr = attr.shape[1]
    out = torch.empty(n, h, w, n_attr, device=rast.device, dtype=rast.dtype)
    n_pix = n * h * w
    # a block of BLOCK_P pixels per program
    _interpolate_fwd[(triton.cdiv(n_pix, BLOCK_P),)](rast, tri, attr, out, n_pix,
                                                     A=n_attr, BLOCK_A=triton.next_power_of_2(n_attr),
                                                     BLOCK_P=BLOCK_P)
    return out
