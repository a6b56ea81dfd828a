"""jpeg_idct_float for a whole component: dequantise, 8x8 IDCT, +128, round and range-limit into the plane."""
import torch
import triton
import triton.language as tl

BB = 16  # blocks per program, along a block row

_TABLES = {}


@triton.jit
def _build_basis(basis):
    """A[u, x] = c(u)/2 cos((2x+1) u pi/16), fp32 [8, 8]."""
    u = tl.arange(0, 8)[:, None]
    x = tl.arange(0, 8)[None, :]
    cu = tl.where(u == 0, 0.7071067811865476, 1.0)
    a = 0.5 * cu * tl.cos(((2 * x + 1) * u).to(tl.float32) * 0.19634954084936207)
    tl.store(basis + u * 8 + x, a)


def _idct_basis(device) -> torch.Tensor:
    """The IDCT basis, built once per device (as jddctmgr's start_pass builds its tables)."""
    if device not in _TABLES:
        basis = torch.empty((8, 8), device=device, dtype=torch.float32)
        _build_basis[(1,)](basis)
        _TABLES[device] = basis
    return _TABLES[device]


@triton.jit
def _idct_8x8(coef, qtab, basis, out, blocks_wide, out_stride, BB: tl.constexpr):
    by = tl.program_id(1)
    bx = tl.program_id(0) * BB + tl.arange(0, BB)
    b_ok = bx < blocks_wide
    r = tl.arange(0, 8)
    k = r[:, None] * 8 + r[None, :]                                    # natural order v*8+u
    blk = by * blocks_wide + bx
    c = tl.load(coef + blk[:, None, None] * 64 + k[None, :, :], mask=b_ok[:, None, None], other=0)
    f = c.to(tl.float32) * tl.load(qtab + k).to(tl.float32)[None, :, :]   # dequantised F[b, v, u]
    a = tl.load(basis + k)                                             # A[u, x]
    # 1-D IDCT along u (rows): T[b, v, x] = sum_u F[b, v, u] A[u, x]
    t = tl.sum(f[:, :, :, None] * a[None, None, :, :], axis=2)
    # 1-D IDCT along v (columns): P[b, y, x] = sum_v A[v, y] T[b, v, x]
    p = tl.sum(a[None, :, :, None] * t[:, :, None, :], axis=1)
    pix = tl.minimum(tl.maximum(tl.floor(p + 128.5), 0.0), 255.0).to(tl.uint8)
    o = (by * 8 + r)[None, :, None] * out_stride + (bx * 8)[:, None, None] + r[None, None, :]
    tl.store(out + o, pix, mask=b_ok[:, None, None])


def run(coef: torch.Tensor, qtab: torch.Tensor, blocks_high: int, blocks_wide: int) -> torch.Tensor:
    out = torch.empty((8 * blocks_high, 8 * blocks_wide), device=coef.device, dtype=torch.uint8)
    grid = (triton.cdiv(blocks_wide, BB), blocks_high)
    _idct_8x8[grid](coef, qtab, _idct_basis(coef.device), out, blocks_wide, out.stride(0), BB=BB, num_warps=4)
    return out
