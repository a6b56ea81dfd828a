"""Qwen3-Next GDN input split: regroup in_proj_qkvz / in_proj_ba outputs into mixed_qkv, z, b, a."""
import torch
import triton
import triton.language as tl


@triton.jit
def _copy_span(dst, src, WIDTH: tl.constexpr):
    cols = tl.arange(0, WIDTH)
    tl.store(dst + cols, tl.load(src + cols))


@triton.jit
def _qkvzba_split(qkvz, ba, mixed_qkv, z, b, a,
                  HK: tl.constexpr, HV: tl.constexpr, DK: tl.constexpr, DV: tl.constexpr):
    tok = tl.program_id(0)
    h = tl.program_id(1)
    R: tl.constexpr = HV // HK
    GROUP: tl.constexpr = 2 * DK + 2 * R * DV
    QKV_STRIDE: tl.constexpr = 2 * HK * DK + HV * DV
    src = qkvz + tok * (HK * GROUP) + h * GROUP
    dst = mixed_qkv + tok * QKV_STRIDE
    _copy_span(dst + h * DK, src, DK)
    _copy_span(dst + HK * DK + h * DK, src + DK, DK)
    _copy_span(dst + 2 * HK * DK + h * R * DV, src + 2 * DK, R * DV)
    _copy_span(z + tok * (HV * DV) + h * R * DV, src + 2 * DK + R * DV, R * DV)
    ba_src = ba + tok * (HK * 2 * R) + h * 2 * R
    _copy_span(b + tok * HV + h * R, ba_src, R)
    _copy_span(a + tok * HV + h * R, ba_src + R, R)


def run(mixed_qkvz: torch.Tensor, mixed_ba: torch.Tensor, Hk: int, Hv: int, Dk: int, Dv: int):
    T = mixed_qkvz.shape[0]
    mixed_qkv = torch.empty((T, 2 * Hk * Dk + Hv * Dv), device=mixed_qkvz.device, dtype=mixed_qkvz.dtype)
    z = torch.empty((T, Hv, Dv), device=mixed_qkvz.device, dtype=mixed_qkvz.dtype)
    b = torch.empty((T, Hv), device=mixed_ba.device, dtype=mixed_ba.dtype)
    a = torch.empty((T, Hv), device=mixed_ba.device, dtype=mixed_ba.dtype)
    _qkvzba_split[(T, Hk)](mixed_qkvz, mixed_ba, mixed_qkv, z, b, a, HK=Hk, HV=Hv, DK=Dk, DV=Dv)
    return mixed_qkv, z, b, a
