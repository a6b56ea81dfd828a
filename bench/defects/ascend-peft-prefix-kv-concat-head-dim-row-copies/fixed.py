"""Prefix-tuning KV concat: per (request, head), copy the adapter prefix then the request's keys/values."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40


@triton.jit
def _copy_run(src, dst, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    for start in range(0, n, BLOCK):
        idx = start + offs
        m = idx < n
        tl.store(dst + idx, tl.load(src + idx, mask=m), mask=m)


@triton.jit
def _prefix_kv_concat(k_ptr, v_ptr, pk_ptr, pv_ptr, ids_ptr, ko_ptr, vo_ptr, H, S, P, D, num_bh,
                      BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for bh in range(pid, num_bh, nprog):
        b = bh // H
        h = bh - b * H
        adapter = tl.load(ids_ptr + b)
        pre = (adapter * H + h) * P * D
        dst = bh * (P + S) * D
        src = bh * S * D
        _copy_run(pk_ptr + pre, ko_ptr + dst, P * D, BLOCK)
        _copy_run(pv_ptr + pre, vo_ptr + dst, P * D, BLOCK)
        _copy_run(k_ptr + src, ko_ptr + dst + P * D, S * D, BLOCK)
        _copy_run(v_ptr + src, vo_ptr + dst + P * D, S * D, BLOCK)


def run(k: torch.Tensor, v: torch.Tensor, prefix_k: torch.Tensor, prefix_v: torch.Tensor,
        ids: torch.Tensor) -> tuple:
    B, H, S, D = k.shape
    P = prefix_k.shape[2]
    k_out = torch.empty(B, H, P + S, D, device=k.device, dtype=k.dtype)
    v_out = torch.empty_like(k_out)
    grid = (min(NUM_VECTOR_CORES, B * H),)
    _prefix_kv_concat[grid](k, v, prefix_k, prefix_v, ids, k_out, v_out, H, S, P, D, B * H, BLOCK=8192)
    return k_out, v_out
