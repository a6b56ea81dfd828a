"""jpeg_idct_float for a whole component: dequantise, 8x8 IDCT, +128, round and range-limit into the plane."""
import torch
import triton
import triton.language as tl

BB = 64  # blocks per program, along a block row

_TABLES = {}


@triton.jit
def _build_basis(basis):
    """The 2-D IDCT as one matrix: K[(v,u), (y,x)] = A[v, y] A[u, x], A[u, x] = c(u)/2 cos((2x+1) u pi/16),
    fp32 [64, 64]."""
    i = tl.arange(0, 64)[:, None]
    j = tl.arange(0, 64)[None, :]
    v = i >> 3
    u = i & 7
    y = j >> 3
    x = j & 7
    cv = tl.where(v == 0, 0.7071067811865476, 1.0)
    cu = tl.where(u == 0, 0.7071067811865476, 1.0)
    av = 0.5 * cv * tl.cos(((2 * y + 1) * v).to(tl.float32) * 0.19634954084936207)
    au = 0.5 * cu * tl.cos(((2 * x + 1) * u).to(tl.float32) * 0.19634954084936207)
    tl.store(basis + i * 64 + j, av * au)


def _idct_basis(device) -> torch.Tensor:
    """The IDCT basis, built once per device (as jddctmgr's start_pass builds its tables)."""
    if device not in _TABLES:
        basis = torch.empty((64, 64), device=device, dtype=torch.float32)
        _build_basis[(1,)](basis)
        _TABLES[device] = basis
    return _TABLES[device]


@triton.jit
def _idct_8x8(coef, qtab, basis, out, blocks_wide, out_stride, BB: tl.constexpr):
    by = tl.program_id(1)
    bx = tl.program_id(0) * BB + tl.arange(0, BB)
    b_ok = bx < blocks_wide
    k = tl.arange(0, 64)                                               # natural order v*8+u / output y*8+x
    blk = by * blocks_wide + bx
    c = tl.load(coef + blk[:, None] * 64 + k[None, :], mask=b_ok[:, None], other=0)
    # dequantisation folded into the basis rows: the coefficients stay exact integers in tf32
    kq = tl.load(basis + k[:, None] * 64 + k[None, :]) * tl.load(qtab + k).to(tl.float32)[:, None]
    p = tl.dot(c.to(tl.float32), kq)                                   # [BB, 64]: P[b, y*8+x]
    pix = tl.minimum(tl.maximum(tl.floor(p + 128.5), 0.0), 255.0).to(tl.uint8)
    o = (by * 8 + (k >> 3))[None, :] * out_stride + (bx * 8)[:, None] + (k & 7)[None, :]
    tl.store(out + o, pix, mask=b_ok[:, None])


def run(coef: torch.Tensor, qtab: torch.Tensor, blocks_high: int, blocks_wide: int) -> torch.Tensor:
    out = torch.empty((8 * blocks_high, 8 * blocks_wide), device=coef.device, dtype=torch.uint8)
    grid = (triton.cdiv(blocks_wide, BB), blocks_high)
    _idct_8x8[grid](coef, qtab, _idct_basis(coef.device), out, blocks_wide, out.stride(0), BB=BB, num_warps=4)
    return out
