"""Block-sparse attention mask from pooled query/key blocks: causal block softmax, threshold, sink and diagonal."""
import math

import torch
import triton
import triton.language as tl

PROGRAMS = 20


@triton.jit
def _block_logits(q_tile, k_head, c0, NB, rowsf, scale, D: tl.constexpr, BN: tl.constexpr):
    cols = c0 + tl.arange(0, BN)
    d = tl.arange(0, D)
    k_tile = tl.load(k_head + cols[:, None] * D + d[None, :], mask=(cols < NB)[:, None], other=0.0)
    s = tl.dot(q_tile, tl.trans(k_tile)) * scale
    colsf = cols.to(tl.float32)
    return tl.where(colsf[None, :] <= rowsf[:, None], s, float("-inf")), cols, colsf


@triton.jit
def _block_mask(qp, kp, mask, NB, n_units, q_tiles, threshold, scale,
                G: tl.constexpr, D: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    d = tl.arange(0, D)
    for unit in range(tl.program_id(0), n_units, tl.num_programs(0)):
        head = unit // q_tiles
        rows = (unit % q_tiles) * BM + tl.arange(0, BM)
        row_ok = rows < NB
        rowsf = rows.to(tl.float32)
        q_tile = tl.load(qp + (head * NB + rows)[:, None] * D + d[None, :], mask=row_ok[:, None], other=0.0)
        k_head = kp + (head // G) * NB * D
        out = mask + head * NB * NB + rows[:, None] * NB
        causal_end = tl.minimum((unit % q_tiles + 1) * BM, NB)
        m = tl.full([BM], float("-inf"), tl.float32)
        l = tl.zeros([BM], tl.float32)
        for c0 in range(0, causal_end, BN):
            s, cols, colsf = _block_logits(q_tile, k_head, c0, NB, rowsf, scale, D, BN)
            m_new = tl.maximum(m, tl.max(s, axis=1))
            l = l * tl.exp(m - m_new) + tl.sum(tl.exp(s - m_new[:, None]), axis=1)
            m = m_new
        inv_l = 1.0 / l
        for c0 in range(0, causal_end, BN):
            s, cols, colsf = _block_logits(q_tile, k_head, c0, NB, rowsf, scale, D, BN)
            p = tl.exp(s - m[:, None]) * inv_l[:, None]
            keep = (p >= threshold) | (colsf[None, :] == rowsf[:, None]) | (colsf[None, :] == 0.0)
            tl.store(out + cols[None, :], keep.to(tl.int8), mask=row_ok[:, None] & (cols < NB)[None, :])
        zeros = tl.zeros([BM, BN], tl.int8)
        for c0 in range(tl.cdiv(causal_end, BN) * BN, NB, BN):
            cols = c0 + tl.arange(0, BN)
            tl.store(out + cols[None, :], zeros, mask=row_ok[:, None] & (cols < NB)[None, :])


def run(qp: torch.Tensor, kp: torch.Tensor, threshold: float) -> torch.Tensor:
    h, nb, d = qp.shape
    block = 64 if nb >= 512 else 16
    mask = torch.empty(h, nb, nb, device=qp.device, dtype=torch.int8)
    q_tiles = triton.cdiv(nb, block)
    n_units = h * q_tiles
    _block_mask[(min(PROGRAMS, n_units),)](qp, kp, mask, nb, n_units, q_tiles, threshold, 1.0 / math.sqrt(d),
                                           G=h // kp.shape[0], D=d, BM=block, BN=block)
    return mask
