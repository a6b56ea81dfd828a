"""x264 8x8 luma quantisation with the frame zigzag scan and coeff_last (quant_8x8 + zigzag_scan_8x8_frame).

Each 8x8 block of H.264 integer-transform coefficients (dct, raster order row*8+col, int16) is quantised
with the per-coefficient multiplier and deadzone bias of its macroblock's QP (adaptive quantisation gives
every MB its own QP; the four 8x8 blocks of an MB share it), exactly as x264's QUANT_ONE:
    level = sign(c) * (((|c| + bias[qp][i]) * mf[qp][i]) >> 16)
The levels are written in the 8x8 frame zigzag order (scan[k] = raster index of scan position k), and
for each block the scan position of its last nonzero level (x264_coeff_last64; -1 for an all-zero
block), which CAVLC/CABAC residual coding reads next. x264 keeps its 8x8 blocks transposed; here blocks
are raster and the scan table matches. mf and bias are x264's quant8_mf / quant8_bias tables for the
flat CQM and the inter luma deadzone (x264_cqm_init), widened to int32.
Returns (level int16 [NB, 64] in scan order, last int32 [NB]).
"""
import torch

META = {
    "name": "quant_8x8_zigzag",
    "level": 1,
    "category": "video-codec",
    "dtypes": ["int16"],
    "tolerance": {"int16": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"blocks": 24, "qp": 26},
        "ragged": {"blocks": 77, "qp": 30},
        # 3840x2160 luma, every MB coded with the 8x8 transform: 240 x 135 MBs x 4 blocks
        "large": {"blocks": 129600, "qp": 26},
    },
    "baseline_notes": "Each program quantises 32 blocks ([32, 64] int32 tile): the block QPs, then the "
                      "coefficients and the mf/bias rows of each block's QP gathered at the zigzag scan "
                      "positions (one 128-byte line per block), levels stored in scan order, coeff_last "
                      "as a row max of the nonzero positions. 4 warps, no autotune.",
    "deterministic": True,
}

QUANT8_SCALE = [
    [13107, 11428, 20972, 12222, 16777, 15481],
    [11916, 10826, 19174, 11058, 14980, 14290],
    [10082, 8943, 15978, 9675, 12710, 11985],
    [9362, 8228, 14913, 8931, 11984, 11259],
    [8192, 7346, 13159, 7740, 10486, 9777],
    [7282, 6428, 11570, 6830, 9118, 8640],
]
QUANT8_SCAN = [0, 3, 4, 3, 3, 1, 5, 1, 4, 5, 2, 5, 3, 1, 5, 1]
INTER_DEADZONE = 32 - 21  # x264 default i_luma_deadzone[0] = 21 (inter)
QP_MAX = 51


def zigzag8x8() -> list:
    """Raster index (row*8+col) of each position of the 8x8 frame zigzag scan."""
    order = sorted(((r, c) for r in range(8) for c in range(8)),
                   key=lambda rc: (rc[0] + rc[1], rc[0] if (rc[0] + rc[1]) % 2 else rc[1]))
    return [r * 8 + c for r, c in order]


def quant_tables() -> tuple:
    """x264_cqm_init for the flat 8x8 CQM: quant8_mf[qp][i] and quant8_bias[qp][i], qp 0..51."""
    mf = torch.zeros(QP_MAX + 1, 64, dtype=torch.int32)
    bias = torch.zeros(QP_MAX + 1, 64, dtype=torch.int32)
    for q in range(QP_MAX + 1):
        s = q // 6
        for i in range(64):
            base = QUANT8_SCALE[q % 6][QUANT8_SCAN[((i >> 1) & 12) | (i & 3)]]
            j = base if s == 0 else (base + (1 << (s - 1))) >> s
            mf[q, i] = j
            bias[q, i] = min(((INTER_DEADZONE << 10) + (j >> 1)) // j, (1 << 15) // j)
    return mf, bias


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """dct int16 [NB, 64], qp int32 [NB] (per MB, shared by its 4 blocks), mf/bias int32 [52, 64], scan int32 [64]."""
    s = META["sizes"][size]
    nb = s["blocks"]
    g = torch.Generator().manual_seed(seed)
    k = torch.arange(64)
    freq = (k // 8 + k % 8).float()
    spread = 900.0 / (1.0 + 0.8 * freq) ** 1.6                         # Laplacian scale per frequency
    activity = torch.rand(nb, 1, generator=g) ** 2 * 1.6               # flat to textured blocks
    mag = -torch.log1p(-torch.rand(nb, 64, generator=g) * 0.999999) * spread * activity
    sign = torch.where(torch.rand(nb, 64, generator=g) < 0.5, -1.0, 1.0)
    dct = (sign * mag).round().clamp(-32768, 32767).to(torch.int16)
    n_mb = (nb + 3) // 4
    aq = torch.randint(-6, 7, (n_mb,), generator=g)                    # adaptive-quant offsets
    qp = (s["qp"] + aq).clamp(0, QP_MAX).repeat_interleave(4)[:nb].to(torch.int32)
    mf, bias = quant_tables()
    scan = torch.tensor(zigzag8x8(), dtype=torch.int32)
    return (dct.to(device), qp.to(device), mf.to(device), bias.to(device), scan.to(device))


def reference(dct: torch.Tensor, qp: torch.Tensor, mf: torch.Tensor, bias: torch.Tensor,
              scan: torch.Tensor) -> tuple:
    order = scan.long()
    c = dct.long()[:, order]
    q = qp.long()
    m = mf.long()[q][:, order]
    f = bias.long()[q][:, order]
    lv = ((c.abs() + f) * m) >> 16
    lv = torch.where(c < 0, -lv, lv)
    pos = torch.arange(64, device=dct.device).expand_as(lv)
    last = torch.where(lv != 0, pos, torch.full_like(pos, -1)).amax(dim=1)
    return lv.to(torch.int16), last.to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    nb = META["sizes"][size]["blocks"]
    return {"bytes": nb * (64 * 2 + 64 * 2 + 4 + 4), "flops": nb * 64 * 4}
