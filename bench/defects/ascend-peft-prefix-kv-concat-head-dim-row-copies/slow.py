"""Prefix-tuning KV concat: per (request, head), copy the adapter prefix then the request's keys/values."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40


@triton.jit
def _prefix_kv_concat(k_ptr, v_ptr, pk_ptr, pv_ptr, ids_ptr, ko_ptr, vo_ptr, H, S, P, D, num_bh,
                      BLOCK_D: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    d = tl.arange(0, BLOCK_D)
    dm = d < D
    for bh in range(pid, num_bh, nprog):
        b = bh // H
        h = bh - b * H
        adapter = tl.load(ids_ptr + b)
        pre = (adapter * H + h) * P * D
        dst = bh * (P + S) * D
        src = bh * S * D
        for t in range(0, P):
            kt = tl.load(pk_ptr + pre + t * D + d, mask=dm)
            vt = tl.load(pv_ptr + pre + t * D + d, mask=dm)
            tl.store(ko_ptr + dst + t * D + d, kt, mask=dm)
            tl.store(vo_ptr + dst + t * D + d, vt, mask=dm)
        for t in range(0, S):
            kt = tl.load(k_ptr + src + t * D + d, mask=dm)
            vt = tl.load(v_ptr + src + t * D + d, mask=dm)
            tl.store(ko_ptr + dst + (P + t) * D + d, kt, mask=dm)
            tl.store(vo_ptr + dst + (P + t) * D + d, vt, mask=dm)


def run(k: torch.Tensor, v: torch.Tensor, prefix_k: torch.Tensor, prefix_v: torch.Tensor,
        ids: torch.Tensor) -> tuple:
    B, H, S, D = k.shape
    P = prefix_k.shape[2]
    k_out = torch.empty(B, H, P + S, D, device=k.device, dtype=k.dtype)
    v_out = torch.empty_like(k_out)
    grid = (min(NUM_VECTOR_CORES, B * H),)
    _prefix_kv_concat[grid](k, v, prefix_k, prefix_v, ids, k_out, v_out, H, S, P, D, B * H,
                            BLOCK_D=triton.next_power_of_2(D))
    return k_out, v_out
