"""Bulk Tanimoto similarity of one query against a bit-packed fingerprint database (chemfp style)."""
import torch
import triton
import triton.language as tl


@triton.jit
def _popcount32(x):
    v = x.to(tl.uint32, bitcast=True)
    v = v - ((v >> 1) & 0x55555555)
    v = (v & 0x33333333) + ((v >> 2) & 0x33333333)
    v = (v + (v >> 4)) & 0x0F0F0F0F
    return ((v * 0x01010101) >> 24).to(tl.int32)


@triton.jit
def _tanimoto_bulk(query, fps, sims, n_fps, n_words, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    valid = rows < n_fps
    row_ptr = fps + rows * n_words
    common = tl.zeros([BLOCK_N], dtype=tl.int32)
    target = tl.zeros([BLOCK_N], dtype=tl.int32)
    q_bits = 0
    for w in range(0, n_words):
        q = tl.load(query + w)
        t = tl.load(row_ptr + w, mask=valid, other=0)
        common += _popcount32(t & q)
        target += _popcount32(t)
        q_bits += _popcount32(q)
    union = q_bits + target - common
    sim = tl.where(union > 0, common.to(tl.float32) / tl.maximum(union, 1).to(tl.float32), 0.0)
    tl.store(sims + rows, sim, mask=valid)


def run(query: torch.Tensor, fps: torch.Tensor) -> torch.Tensor:
    n_fps, n_words = fps.shape
    sims = torch.empty(n_fps, device=fps.device, dtype=torch.float32)
    BLOCK_N = 256
    _tanimoto_bulk[(triton.cdiv(n_fps, BLOCK_N),)](query, fps, sims, n_fps, n_words, BLOCK_N=BLOCK_N, num_warps=4)
    return sims
