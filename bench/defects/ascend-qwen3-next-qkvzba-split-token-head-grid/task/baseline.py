"""Qwen3-Next GDN input split: regroup in_proj_qkvz / in_proj_ba outputs into mixed_qkv, z, b, a."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40
ROWS = 32


@triton.jit
def _copy_rows(dst, dst_stride, dst_off, src, src_stride, src_off, rows, row_ok, WIDTH: tl.constexpr):
    cols = tl.arange(0, WIDTH)
    x = tl.load(src + rows[:, None] * src_stride + src_off + cols[None, :], mask=row_ok[:, None])
    tl.store(dst + rows[:, None] * dst_stride + dst_off + cols[None, :], x, mask=row_ok[:, None])


@triton.jit
def _qkvzba_split(qkvz, ba, mixed_qkv, z, b, a, T,
                  HK: tl.constexpr, HV: tl.constexpr, DK: tl.constexpr, DV: tl.constexpr,
                  ROWS: tl.constexpr):
    R: tl.constexpr = HV // HK
    GROUP: tl.constexpr = 2 * DK + 2 * R * DV
    QKVZ_STRIDE: tl.constexpr = HK * GROUP
    QKV_STRIDE: tl.constexpr = 2 * HK * DK + HV * DV
    for tile in range(tl.program_id(0), tl.cdiv(T, ROWS), tl.num_programs(0)):
        rows = tile * ROWS + tl.arange(0, ROWS)
        row_ok = rows < T
        for h in tl.static_range(HK):
            src = h * GROUP
            _copy_rows(mixed_qkv, QKV_STRIDE, h * DK, qkvz, QKVZ_STRIDE, src, rows, row_ok, DK)
            _copy_rows(mixed_qkv, QKV_STRIDE, HK * DK + h * DK, qkvz, QKVZ_STRIDE, src + DK, rows, row_ok, DK)
            _copy_rows(mixed_qkv, QKV_STRIDE, 2 * HK * DK + h * R * DV,
                       qkvz, QKVZ_STRIDE, src + 2 * DK, rows, row_ok, R * DV)
            _copy_rows(z, HV * DV, h * R * DV, qkvz, QKVZ_STRIDE, src + 2 * DK + R * DV, rows, row_ok, R * DV)
            _copy_rows(b, HV, h * R, ba, HK * 2 * R, h * 2 * R, rows, row_ok, R)
            _copy_rows(a, HV, h * R, ba, HK * 2 * R, h * 2 * R + R, rows, row_ok, R)


def run(mixed_qkvz: torch.Tensor, mixed_ba: torch.Tensor, Hk: int, Hv: int, Dk: int, Dv: int):
    T = mixed_qkvz.shape[0]
    mixed_qkv = torch.empty((T, 2 * Hk * Dk + Hv * Dv), device=mixed_qkvz.device, dtype=mixed_qkvz.dtype)
    z = torch.empty((T, Hv, Dv), device=mixed_qkvz.device, dtype=mixed_qkvz.dtype)
    b = torch.empty((T, Hv), device=mixed_ba.device, dtype=mixed_ba.dtype)
    a = torch.empty((T, Hv), device=mixed_ba.device, dtype=mixed_ba.dtype)
    grid = (max(1, min(NUM_VECTOR_CORES, triton.cdiv(T, ROWS))),)
    _qkvzba_split[grid](mixed_qkvz, mixed_ba, mixed_qkv, z, b, a, T,
                        HK=Hk, HV=Hv, DK=Dk, DV=Dv, ROWS=ROWS)
    return mixed_qkv, z, b, a
