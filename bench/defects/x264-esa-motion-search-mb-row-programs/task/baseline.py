"""Exhaustive 16x16 SAD motion search over a 32x32 window, one program per macroblock."""
import torch
import triton
import triton.language as tl

RANGE = tl.constexpr(16)
MB = tl.constexpr(16)


@triton.jit
def _window_sads(cur_mb, ref_win, stride_c, stride_r):
    cand = tl.arange(0, 4 * RANGE * RANGE)
    cand_ptr = ref_win + (cand // (2 * RANGE)) * stride_r + cand % (2 * RANGE)
    acc = tl.zeros((4 * RANGE * RANGE,), dtype=tl.int32)
    for r in range(MB):
        for c in range(MB):
            p = tl.load(cur_mb + r * stride_c + c).to(tl.int32)
            q = tl.load(cand_ptr + r * stride_r + c).to(tl.int32)
            acc += tl.abs(q - p)
    return acc


@triton.jit
def _store_best(acc, mv, sad, mb):
    best = tl.argmin(acc, axis=0)
    tl.store(sad + mb, tl.min(acc, axis=0))
    tl.store(mv + 2 * mb, best % (2 * RANGE) - RANGE)
    tl.store(mv + 2 * mb + 1, best // (2 * RANGE) - RANGE)


@triton.jit
def _esa_search(cur, ref, mv, sad, stride_c, stride_r, n_mbx):
    mbx = tl.program_id(0)
    mby = tl.program_id(1)
    cur_mb = cur + mby * MB * stride_c + mbx * MB
    ref_win = ref + mby * MB * stride_r + mbx * MB
    acc = _window_sads(cur_mb, ref_win, stride_c, stride_r)
    _store_best(acc, mv, sad, mby * n_mbx + mbx)


def run(cur: torch.Tensor, ref: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    H, W = cur.shape
    n_mby, n_mbx = H // 16, W // 16
    mv = torch.empty((n_mby, n_mbx, 2), device=cur.device, dtype=torch.int32)
    sad = torch.empty((n_mby, n_mbx), device=cur.device, dtype=torch.int32)
    _esa_search[(n_mbx, n_mby)](cur, ref, mv, sad, cur.stride(0), ref.stride(0), n_mbx, num_warps=4)
    return mv, sad
