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
def _tanimoto_bulk(query, fps, sims, n_fps, n_words, BLOCK_N: tl.constexpr, BLOCK_W: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    words = tl.arange(0, BLOCK_W)
    valid = rows < n_fps
    in_row = words < n_words
    q = tl.load(query + words, mask=in_row, other=0)
    q_bits = tl.sum(_popcount32(q), axis=0)
    offs = rows[:, None] * n_words + words[None, :]
    t = tl.load(fps + offs, mask=valid[:, None] & in_row[None, :], other=0)
    common = tl.sum(_popcount32(t & q[None, :]), axis=1)
    target = tl.sum(_popcount32(t), axis=1)
    union = q_bits + target - common
    sim = tl.where(union > 0, common.to(tl.float32) / tl.maximum(union, 1).to(tl.float32), 0.0)
    tl.store(sims + rows, sim, mask=valid)


def run(query: torch.Tensor, fps: torch.Tensor) -> torch.Tensor:
    n_fps, n_words = fps.shape
    sims = torch.empty(n_fps, device=fps.device, dtype=torch.float32)
    BLOCK_N = 64
    BLOCK_W = triton.next_power_of_2(n_words)
    _tanimoto_bulk[(triton.cdiv(n_fps, BLOCK_N),)](query, fps, sims, n_fps, n_words,
                                                   BLOCK_N=BLOCK_N, BLOCK_W=BLOCK_W, num_warps=4)
    return sims
