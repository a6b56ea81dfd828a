"""Half-sample motion refinement with the Hadamard SATD of HM / VTM (TEncSearch::xPatternSearchFracDIF,
xPatternRefinement with RdCost::xCalcHADs8x8 as the distortion).

After the integer search, every 8x8 prediction unit tests the nine half-sample vectors around its
integer vector, in HM's s_acMvRefineH order (0,0), (0,-1), (0,1), (-1,0), (1,0), (-1,-1), (1,-1), (-1,1), (1,1)
(half-sample units, (x, y)). The prediction of half-sample vector h is read from the interpolated
reference plane of phase (h.y & 1, h.x & 1) at integer offset h >> 1; the planes (integer, horizontal
half, vertical half, diagonal half) are made with the HEVC/VVC 8-tap half-sample luma filter
[-1, 4, -11, 40, 40, -11, 4, -1] on the padded 10-bit reference (two-stage rounding for the diagonal
plane, 14-bit intermediate). Cost of a candidate:
    HAD  = sum |T| - |T_dc| + (|T_dc| >> 2),  then (HAD + 2) >> 2        (VTM xCalcHADs8x8, mean-scaled DC)
           with T the unnormalised 8x8 Walsh-Hadamard transform of the residual org - pred
    bits = EG(q.x - mvp.x) + EG(q.y - mvp.y),  q = 2h the quarter-sample vector,
           EG(v) = 1 + 2*floor(log2(v <= 0 ? 1 - 2v : 2v))                (xGetExpGolombNumberOfBits)
    cost = HAD + ((lambda_q16 * bits) >> 16)                               (motion lambda in 16.16)
The first candidate with the smallest cost wins. Returns (mv int32 [n_y, n_x, 2] quarter-sample (x, y),
cost int32 [n_y, n_x]).
"""
import math

import torch
import torch.nn.functional as F

META = {
    "name": "hm_frac_me_had8x8",
    "level": 3,
    "category": "video-motion-estimation",
    "dtypes": ["int16"],
    "tolerance": {"int16": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"W": 64, "H": 48},
        "ragged": {"W": 88, "H": 56},
        "large": {"W": 3840, "H": 2160},
    },
    "baseline_notes": "Programs take 64 prediction units: the [64, 64] residual tile (PU x pixel) of each of "
                      "the nine candidates is multiplied by the 64x64 +-1 Walsh-Hadamard basis with one "
                      "tl.dot (tf32 is exact here: |residual| <= 1023 fits its 11-bit significand and the "
                      "integer sums stay below 2^24), |T| summed along the coefficient axis, exp-Golomb "
                      "MV bits in registers, running minimum over candidates. 4 warps, no autotune.",
    "deterministic": True,
}
PAD = 64                 # reference padding (HM pads the reconstructed picture by the max CU size + 16)
BIT_DEPTH = 10
TAPS = (-1, 4, -11, 40, 40, -11, 4, -1)
REFINE_H = ((0, 0), (0, -1), (0, 1), (-1, 0), (1, 0), (-1, -1), (1, -1), (-1, 1), (1, 1))
LAMBDA_Q16 = int(round(math.sqrt(0.57 * 2.0 ** ((32 - 12) / 3.0)) * 65536))  # sqrt(lambda) at QP 32


def _texture(h: int, w: int, g: torch.Generator) -> torch.Tensor:
    img = torch.zeros(1, 1, h, w)
    for step, amp in ((64, 190.0), (20, 100.0), (7, 45.0)):
        coarse = torch.randn(1, 1, h // step + 2, w // step + 2, generator=g)
        img += amp * F.interpolate(coarse, size=(h, w), mode="bicubic", align_corners=False)
    img += 10.0 * torch.randn(1, 1, h, w, generator=g)
    return (img + 512.0).clamp(0, 1023).round()[0, 0].long()


def _filt(x: torch.Tensor, dim: int, n: int) -> torch.Tensor:
    """8-tap half-sample filter along dim; output sample i sits between inputs i + 3 and i + 4."""
    return sum(t * x.narrow(dim, k, n) for k, t in enumerate(TAPS))


def half_sample_planes(ref: torch.Tensor) -> torch.Tensor:
    """[4, H, W] planes (integer, H half, V half, HV half) of a reference padded by 4 extra samples."""
    maxv = (1 << BIT_DEPTH) - 1
    h, w = ref.shape[0] - 8, ref.shape[1] - 8
    full = ref[4:4 + h, 4:4 + w]
    hor = ((_filt(ref[4:4 + h], 1, w) + 32) >> 6).clamp(0, maxv)
    ver = ((_filt(ref[:, 4:4 + w], 0, h) + 32) >> 6).clamp(0, maxv)
    # diagonal: first stage to the 14-bit intermediate (shift 2, minus IF_INTERNAL_OFFS), then shift 10
    mid = (_filt(ref, 1, w) >> (BIT_DEPTH - 8)) - 8192
    diag = ((_filt(mid, 0, h) + (1 << 9) + (8192 << 6)) >> 10).clamp(0, maxv)
    return torch.stack([full, hor, ver, diag])


def exp_golomb_bits(v: torch.Tensor) -> torch.Tensor:
    t = torch.where(v <= 0, 1 - 2 * v, 2 * v)
    lg = sum((t >= (1 << k)).long() for k in range(1, 20))
    return 1 + 2 * lg


def hadamard_basis(device="cpu") -> torch.Tensor:
    """W[k, j] = (-1)^(popcount(r & u) + popcount(c & v)), k = 8r + c (pixel), j = 8u + v (coefficient)."""
    k = torch.arange(64, device=device)
    r, c = k // 8, k % 8

    def parity(a):
        return (a ^ (a >> 1) ^ (a >> 2)) & 1

    p = parity(r[:, None] & r[None, :]) + parity(c[:, None] & c[None, :])
    return (1 - 2 * (p & 1)).double()


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """org [H, W] int16 (10-bit source), planes [4, H + 2 PAD, W + 2 PAD] int16 (half-sample reference
    planes), mv_int [H/8, W/8, 2] int16 (integer search result, full samples), mvp [H/8, W/8, 2] int16
    (AMVP predictor, quarter samples), lambda_q16."""
    s = META["sizes"][size]
    h, w = s["H"], s["W"]
    ny, nx = h // 8, w // 8
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    ref = _texture(h + 2 * PAD + 8, w + 2 * PAD + 8, g)
    planes = half_sample_planes(ref)
    # true motion in half samples: pan plus a smooth field, kept well inside the padding
    field = F.interpolate(torch.randn(1, 2, ny // 4 + 2, nx // 4 + 2, generator=g), size=(ny, nx),
                          mode="bilinear", align_corners=False)[0]
    pan = torch.randint(-12, 13, (2,), generator=g).float()
    hx = (pan[0] + 10.0 * field[0]).round().long().clamp(-2 * PAD + 8, 2 * PAD - 8)
    hy = (pan[1] + 10.0 * field[1]).round().long().clamp(-2 * PAD + 8, 2 * PAD - 8)
    py, px = torch.meshgrid(torch.arange(ny), torch.arange(nx), indexing="ij")
    r = torch.arange(8)
    ph = 2 * (hy & 1) + (hx & 1)
    rows = PAD + 8 * py[:, :, None, None] + (hy >> 1)[:, :, None, None] + r[None, None, :, None]
    cols = PAD + 8 * px[:, :, None, None] + (hx >> 1)[:, :, None, None] + r[None, None, None, :]
    blocks = planes[ph[:, :, None, None], rows, cols] + torch.randint(-6, 7, (ny, nx, 8, 8), generator=g)
    org = blocks.clamp(0, 1023).permute(0, 2, 1, 3).reshape(h, w)
    # integer search result: the nearest integer vector, sometimes one sample off
    ix = torch.div(hx + torch.randint(0, 2, hx.shape, generator=g), 2, rounding_mode="floor")
    iy = torch.div(hy + torch.randint(0, 2, hy.shape, generator=g), 2, rounding_mode="floor")
    ix += (torch.rand(ix.shape, generator=g) < 0.1).long() * torch.randint(-1, 2, ix.shape, generator=g)
    iy += (torch.rand(iy.shape, generator=g) < 0.1).long() * torch.randint(-1, 2, iy.shape, generator=g)
    mv_int = torch.stack([ix, iy], dim=-1)
    mvp = 2 * torch.stack([hx, hy], dim=-1) + torch.randint(-6, 7, (ny, nx, 2), generator=g)
    return (org.to(dt).to(device), planes.to(dt).to(device), mv_int.to(torch.int16).to(device),
            mvp.to(torch.int16).to(device), LAMBDA_Q16)


def reference(org: torch.Tensor, planes: torch.Tensor, mv_int: torch.Tensor, mvp: torch.Tensor,
              lambda_q16: int) -> tuple:
    h, w = org.shape
    ny, nx = mv_int.shape[:2]
    pad = (planes.shape[2] - w) // 2
    dev = org.device
    n = ny * nx
    pu = torch.arange(n, device=dev)
    py, px = pu // nx, pu % nx
    src = org.long().reshape(ny, 8, nx, 8).permute(0, 2, 1, 3).reshape(n, 64)
    pl = planes.long()
    basis = hadamard_basis(dev)
    bx = 2 * mv_int[..., 0].reshape(-1).long()
    by = 2 * mv_int[..., 1].reshape(-1).long()
    mx = mvp[..., 0].reshape(-1).long()
    my = mvp[..., 1].reshape(-1).long()
    r = torch.arange(8, device=dev)
    costs = []
    for dx, dy in REFINE_H:
        hx, hy = bx + dx, by + dy
        ph = 2 * (hy & 1) + (hx & 1)
        rows = pad + 8 * py[:, None, None] + (hy >> 1)[:, None, None] + r[None, :, None]
        cols = pad + 8 * px[:, None, None] + (hx >> 1)[:, None, None] + r[None, None, :]
        pred = pl[ph[:, None, None], rows, cols].reshape(n, 64)
        coef = ((src - pred).double() @ basis).abs().round().long()
        dc = coef[:, 0]
        had = coef.sum(dim=1) - dc + (dc >> 2)
        had = (had + 2) >> 2
        bits = exp_golomb_bits(2 * hx - mx) + exp_golomb_bits(2 * hy - my)
        costs.append(had + ((lambda_q16 * bits) >> 16))
    costs = torch.stack(costs, dim=1)
    best = costs.argmin(dim=1)
    cost = costs.gather(1, best[:, None])[:, 0]
    off = torch.tensor(REFINE_H, device=dev)[best]
    mv = torch.stack([2 * (bx + off[:, 0]), 2 * (by + off[:, 1])], dim=-1)
    return mv.reshape(ny, nx, 2).to(torch.int32), cost.reshape(ny, nx).to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = (s["H"] // 8) * (s["W"] // 8)
    return {"bytes": 2 * s["H"] * s["W"] + 9 * 128 * n + 16 * n, "flops": 9 * n * 2 * 64 * 64}
