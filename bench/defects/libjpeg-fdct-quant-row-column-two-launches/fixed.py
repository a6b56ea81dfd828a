"""JPEG forward DCT + quantisation: row pass and column pass as 64x64 operators on [blocks, 64] tiles."""
import torch
import triton
import triton.language as tl

PI_16 = tl.constexpr(0.19634954084936207)


@triton.jit
def _dct8_t():
    x = tl.arange(0, 8)[:, None].to(tl.float32)
    u = tl.arange(0, 8)[None, :].to(tl.float32)
    scale = tl.where(u == 0, 0.35355339059327373, 0.5)
    return scale * tl.cos((2.0 * x + 1.0) * u * PI_16)          # [x, u] = C[u, x]


@triton.jit
def _row_pass_operator():
    ct = _dct8_t()
    y = tl.arange(0, 8)[:, None, None, None]
    y2 = tl.arange(0, 8)[None, None, :, None]
    m = tl.where(y == y2, ct[None, :, None, :], 0.0)             # [(y, x), (y2, v)] = (y == y2) C[v, x]
    return tl.reshape(m, (64, 64)).to(tl.float16)


@triton.jit
def _column_pass_operator():
    ct = _dct8_t()
    v = tl.arange(0, 8)[None, :, None, None]
    v2 = tl.arange(0, 8)[None, None, None, :]
    m = tl.where(v == v2, ct[:, None, :, None], 0.0)             # [(y, v), (u, v2)] = C[u, y] (v == v2)
    return tl.reshape(m, (64, 64)).to(tl.float16)


@triton.jit
def _quantize(y, recip):
    q = y * recip[None, :]
    return tl.where(q >= 0.0, tl.floor(q + 0.5), -tl.floor(0.5 - q)).to(tl.int16)


@triton.jit
def _fdct_quant(pix, qtab, coef, H, W, n_bx, BLOCK_B: tl.constexpr):
    by = tl.program_id(0)
    img = tl.program_id(1)
    k = tl.arange(0, 64)[None, :]
    b = tl.arange(0, BLOCK_B)[:, None]
    rows = pix + img * H * W + (by * 8 + k // 8) * W + k % 8
    out = coef + (img * (H // 8) + by) * n_bx * 64 + k
    m_row = _row_pass_operator()
    m_col = _column_pass_operator()
    recip = 1.0 / tl.load(qtab + tl.arange(0, 64)).to(tl.float32)
    for bx0 in range(0, n_bx, BLOCK_B):
        bx = bx0 + b
        keep = bx < n_bx
        x = tl.load(rows + bx * 8, mask=keep, other=128).to(tl.float32) - 128.0
        t = tl.dot(x.to(tl.float16), m_row)
        y = tl.dot(t.to(tl.float16), m_col)
        tl.store(out + bx * 64, _quantize(y, recip), mask=keep)


def run(pixels: torch.Tensor, qtable: torch.Tensor) -> torch.Tensor:
    N, H, W = pixels.shape
    n_by, n_bx = H // 8, W // 8
    coef = torch.empty((N, n_by, n_bx, 64), device=pixels.device, dtype=torch.int16)
    _fdct_quant[(n_by, N)](pixels, qtable, coef, H, W, n_bx, BLOCK_B=64, num_warps=4)
    return coef
