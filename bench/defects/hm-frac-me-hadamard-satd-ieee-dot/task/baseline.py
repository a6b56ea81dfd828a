"""HM/VTM half-sample motion refinement: Hadamard 8x8 SATD + lambda * MV bits over the nine candidates."""
import torch
import triton
import triton.language as tl

BLOCK_PU = 64  # 8x8 prediction units per program


@triton.jit
def _parity3(a):
    return (a ^ (a >> 1) ^ (a >> 2)) & 1


@triton.jit
def _eg_bits(v):
    """Exp-Golomb length of an MV difference (HM xGetExpGolombNumberOfBits)."""
    t = tl.where(v <= 0, 1 - 2 * v, 2 * v)
    lg = tl.zeros_like(t)
    for k in tl.static_range(1, 20):
        lg += (t >= (1 << k)).to(tl.int32)
    return 1 + 2 * lg


@triton.jit
def _frac_refine_had8(org, planes, mv_int, mvp, out_mv, out_cost, n_pu, n_x, org_stride, p_stride, p_size,
                      lambda_q16, PAD: tl.constexpr, BLOCK_PU: tl.constexpr):
    pu = tl.program_id(0) * BLOCK_PU + tl.arange(0, BLOCK_PU)
    ok = pu < n_pu
    pu_y = pu // n_x
    pu_x = pu - pu_y * n_x
    k = tl.arange(0, 64)  # pixel 8r + c along the tile's second axis
    pr = k >> 3
    pc = k & 7
    # 64x64 Walsh-Hadamard basis: H8 (x) H8, coefficient j = 8u + v
    sign = _parity3(pr[:, None] & pr[None, :]) + _parity3(pc[:, None] & pc[None, :])
    basis = (1 - 2 * (sign & 1)).to(tl.float32)
    is_dc = (k == 0)[None, :]

    o = tl.load(org + (pu_y * 8)[:, None] * org_stride + (pu_x * 8)[:, None] + (pr * org_stride + pc)[None, :],
                mask=ok[:, None], other=0).to(tl.int32)
    bx = 2 * tl.load(mv_int + 2 * pu, mask=ok, other=0).to(tl.int32)
    by = 2 * tl.load(mv_int + 2 * pu + 1, mask=ok, other=0).to(tl.int32)
    mx = tl.load(mvp + 2 * pu, mask=ok, other=0).to(tl.int32)
    my = tl.load(mvp + 2 * pu + 1, mask=ok, other=0).to(tl.int32)
    base = (PAD + pu_y * 8) * p_stride + PAD + pu_x * 8
    pix_off = pr * p_stride + pc

    best_cost = tl.full([BLOCK_PU], 2147483647, tl.int32)
    best_x = bx
    best_y = by
    for i in range(9):
        # s_acMvRefineH: (0,0), (0,-1), (0,1), (-1,0), (1,0), (-1,-1), (1,-1), (-1,1), (1,1)
        dx = tl.where(i >= 5, 2 * ((i - 5) & 1) - 1, tl.where(i == 3, -1, tl.where(i == 4, 1, 0)))
        dy = tl.where(i >= 5, 2 * ((i - 5) >> 1) - 1, tl.where(i == 1, -1, tl.where(i == 2, 1, 0)))
        hx = bx + dx
        hy = by + dy
        phase = 2 * (hy & 1) + (hx & 1)
        addr = phase * p_size + base + (hy >> 1) * p_stride + (hx >> 1)
        pred = tl.load(planes + addr[:, None] + pix_off[None, :], mask=ok[:, None], other=0).to(tl.int32)
        resid = (o - pred).to(tl.float32)
        # tf32 is exact here: |resid| <= 1023 fits the 11-bit significand, the basis is +-1
        coef = tl.dot(resid, basis, input_precision="tf32")
        mag = tl.abs(coef).to(tl.int32)
        dc = tl.sum(tl.where(is_dc, mag, 0), axis=1)
        had = tl.sum(mag, axis=1) - dc + (dc >> 2)
        had = (had + 2) >> 2
        bits = _eg_bits(2 * hx - mx) + _eg_bits(2 * hy - my)
        cost = had + ((lambda_q16 * bits) >> 16)
        better = cost < best_cost
        best_cost = tl.where(better, cost, best_cost)
        best_x = tl.where(better, hx, best_x)
        best_y = tl.where(better, hy, best_y)
    tl.store(out_mv + 2 * pu, 2 * best_x, mask=ok)
    tl.store(out_mv + 2 * pu + 1, 2 * best_y, mask=ok)
    tl.store(out_cost + pu, best_cost, mask=ok)


def run(org: torch.Tensor, planes: torch.Tensor, mv_int: torch.Tensor, mvp: torch.Tensor, lambda_q16: int) -> tuple:
    h, w = org.shape
    n_y, n_x = mv_int.shape[0], mv_int.shape[1]
    n_pu = n_y * n_x
    pad = (planes.shape[2] - w) // 2
    out_mv = torch.empty((n_y, n_x, 2), device=org.device, dtype=torch.int32)
    out_cost = torch.empty((n_y, n_x), device=org.device, dtype=torch.int32)
    grid = (triton.cdiv(n_pu, BLOCK_PU),)
    _frac_refine_had8[grid](org, planes, mv_int, mvp, out_mv, out_cost, n_pu, n_x, org.stride(0),
                            planes.stride(1), planes.stride(0), lambda_q16, PAD=pad, BLOCK_PU=BLOCK_PU)
    return out_mv, out_cost
