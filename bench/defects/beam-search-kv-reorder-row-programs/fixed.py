"""Beam-search KV-cache reorder: keys and values in one launch, a program per (row, kv head, block of positions)."""
import torch
import triton
import triton.language as tl


@triton.jit
def _copy_tile(src, dst, offs_s, offs_d, S, stride_s, dst_stride_s, HEAD_DIM: tl.constexpr):
    mask = (offs_s[:, None] < S) & (offs_d[None, :] < HEAD_DIM)
    tile = tl.load(src + offs_s[:, None] * stride_s + offs_d[None, :], mask=mask)
    tl.store(dst + offs_s[:, None] * dst_stride_s + offs_d[None, :], tile, mask=mask)


@triton.jit
def _beam_reorder_kv_kernel(
    k_ptr, v_ptr, k_out_ptr, v_out_ptr, beam_idx_ptr, S,
    stride_kr, stride_kh, stride_ks,
    stride_vr, stride_vh, stride_vs,
    stride_or, stride_oh, stride_os,
    HEAD_DIM: tl.constexpr, BLOCK_D: tl.constexpr, BLOCK_S: tl.constexpr,
):
    row = tl.program_id(0).to(tl.int64)
    head = tl.program_id(1)
    blk = tl.program_id(2)
    src_row = tl.load(beam_idx_ptr + row)
    offs_s = blk * BLOCK_S + tl.arange(0, BLOCK_S)
    offs_d = tl.arange(0, BLOCK_D)
    out_off = row * stride_or + head * stride_oh
    _copy_tile(k_ptr + src_row * stride_kr + head * stride_kh, k_out_ptr + out_off,
               offs_s, offs_d, S, stride_ks, stride_os, HEAD_DIM)
    _copy_tile(v_ptr + src_row * stride_vr + head * stride_vh, v_out_ptr + out_off,
               offs_s, offs_d, S, stride_vs, stride_os, HEAD_DIM)


def run(key, value, beam_idx):
    R, H, S, D = key.shape
    key_out = torch.empty_like(key, memory_format=torch.contiguous_format)
    value_out = torch.empty_like(value, memory_format=torch.contiguous_format)
    launch = {"HEAD_DIM": D, "BLOCK_D": triton.next_power_of_2(D), "BLOCK_S": 32, "num_warps": 4}
    grid = (R, H, triton.cdiv(S, launch["BLOCK_S"]))
    _beam_reorder_kv_kernel[grid](
        key, value, key_out, value_out, beam_idx, S,
        key.stride(0), key.stride(1), key.stride(2),
        value.stride(0), value.stride(1), value.stride(2),
        key_out.stride(0), key_out.stride(1), key_out.stride(2),
        **launch,
    )
    return key_out, value_out
