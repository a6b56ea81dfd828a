"""Bullet3 GPU SAP: sweep axis from the variance of the small AABBs' centres, then FloatFlip sort keys."""
import torch
import triton
import triton.language as tl

BLOCK = 1024


@triton.jit
def _centre_moments(aabbs, mapping, moments, n, BLOCK: tl.constexpr):
    # prepareSumVarianceKernel, reduced on the device in fp64: moments[0:4] += c, moments[4:8] += c * c
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = i < n
    lane = tl.arange(0, 4)
    xyz = ok[:, None] & (lane[None, :] < 3)
    src = tl.load(mapping + i, mask=ok, other=0)
    row = aabbs + src[:, None] * 8 + lane[None, :]
    lo = tl.load(row, mask=xyz, other=0.0)
    hi = tl.load(row + 4, mask=xyz, other=0.0)
    c = (lo + hi) * 0.5
    acc = tl.broadcast_to(moments + lane[None, :], (BLOCK, 4))
    tl.atomic_add(acc, c.to(tl.float64), mask=xyz)
    tl.atomic_add(acc + 4, (c * c).to(tl.float64), mask=xyz)


@triton.jit
def _flip_float_keys(aabbs, mapping, moments, variance, sort_data, n, BLOCK: tl.constexpr):
    lane = tl.arange(0, 4)
    s = tl.load(moments + lane)
    s2 = tl.load(moments + 4 + lane)
    v = s2 - s * s / n.to(tl.float64)
    v0 = tl.sum(tl.where(lane == 0, v, 0.0), axis=0)
    v1 = tl.sum(tl.where(lane == 1, v, 0.0), axis=0)
    v2 = tl.sum(tl.where(lane == 2, v, 0.0), axis=0)
    axis = tl.where(v1 > v0, 1, 0)
    best = tl.where(v1 > v0, v1, v0)
    axis = tl.where(v2 > best, 2, axis)
    if tl.program_id(0) == 0:
        tl.store(variance + lane, v.to(tl.float32), mask=lane < 3)

    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = i < n
    src = tl.load(mapping + i, mask=ok, other=0)
    lo = tl.load(aabbs + src * 8 + axis, mask=ok, other=0.0)
    bits = lo.to(tl.uint32, bitcast=True)
    flip = tl.where((bits >> 31) != 0, 0xFFFFFFFF, 0x80000000)
    key = (bits ^ flip).to(tl.int32, bitcast=True)
    tl.store(sort_data + 2 * i, key, mask=ok)
    tl.store(sort_data + 2 * i + 1, i, mask=ok)


def run(all_aabbs: torch.Tensor, small_mapping: torch.Tensor) -> tuple:
    n = small_mapping.shape[0]
    moments = torch.zeros(8, device=all_aabbs.device, dtype=torch.float64)
    variance = torch.empty(3, device=all_aabbs.device, dtype=all_aabbs.dtype)
    sort_data = torch.empty((n, 2), device=all_aabbs.device, dtype=torch.int32)
    grid = (triton.cdiv(n, BLOCK),)
    _centre_moments[grid](all_aabbs, small_mapping, moments, n, BLOCK=BLOCK, num_warps=4)
    _flip_float_keys[grid](all_aabbs, small_mapping, moments, variance, sort_data, n,
                           BLOCK=BLOCK, num_warps=4)
    return variance, sort_data
