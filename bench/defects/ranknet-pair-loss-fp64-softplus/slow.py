"""RankNet pairwise slate loss: (i-block, slate) pair-tile partials, then a per-slate finalize."""
import torch
import triton
import triton.language as tl


@triton.jit
def _softplus(x):
    return tl.maximum(x, 0.0) + tl.log(1.0 + tl.exp(-tl.abs(x)))


@triton.jit
def _pair_tile(s_i, gain_i, y_i, s_j, gain_j, y_j):
    ordered = (y_i[:, None] > y_j[None, :]) & (y_j[None, :] >= 0.0)
    pair_loss = (gain_i[:, None] - gain_j[None, :]) * _softplus(s_j[None, :] - s_i[:, None])
    return tl.where(ordered, pair_loss, 0.0), ordered.to(tl.float32)


@triton.jit
def _ranknet_partials(scores, labels, lengths, part_loss, part_cnt, stride_s, stride_y, n_blocks,
                      BLOCK_I: tl.constexpr, BLOCK_J: tl.constexpr):
    i_blk = tl.program_id(0)
    slate = tl.program_id(1)
    n = tl.load(lengths + slate)
    if i_blk * BLOCK_I >= n:
        return
    s_row = scores + slate * stride_s
    y_row = labels + slate * stride_y
    offs_i = i_blk * BLOCK_I + tl.arange(0, BLOCK_I)
    s_i = tl.load(s_row + offs_i, mask=offs_i < n, other=0.0).to(tl.float64)
    y_i = tl.load(y_row + offs_i, mask=offs_i < n, other=-1.0)
    gain_i = tl.exp2(y_i)
    acc = tl.zeros([BLOCK_I, BLOCK_J], dtype=tl.float64)
    cnt = tl.zeros([BLOCK_I, BLOCK_J], dtype=tl.float32)
    for start in range(0, n, BLOCK_J):
        offs_j = start + tl.arange(0, BLOCK_J)
        s_j = tl.load(s_row + offs_j, mask=offs_j < n, other=0.0).to(tl.float64)
        y_j = tl.load(y_row + offs_j, mask=offs_j < n, other=-1.0)
        pair_loss, pair_cnt = _pair_tile(s_i, gain_i, y_i, s_j, tl.exp2(y_j), y_j)
        acc += pair_loss
        cnt += pair_cnt
    out = slate * n_blocks + i_blk
    tl.store(part_loss + out, tl.sum(tl.sum(acc, axis=1), axis=0).to(part_loss.dtype.element_ty))
    tl.store(part_cnt + out, tl.sum(tl.sum(cnt, axis=1), axis=0))


@triton.jit
def _ranknet_finalize(part_loss, part_cnt, lengths, loss, n_blocks, BLOCK_I: tl.constexpr, BLOCK_P: tl.constexpr):
    slate = tl.program_id(0)
    used = tl.cdiv(tl.load(lengths + slate), BLOCK_I)
    offs = tl.arange(0, BLOCK_P)
    total = tl.sum(tl.load(part_loss + slate * n_blocks + offs, mask=offs < used, other=0.0), axis=0)
    pairs = tl.sum(tl.load(part_cnt + slate * n_blocks + offs, mask=offs < used, other=0.0), axis=0)
    tl.store(loss + slate, total / tl.maximum(pairs, 1.0))


def run(scores: torch.Tensor, labels: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
    Q, L = scores.shape
    BLOCK = 64 if L >= 256 else 16
    n_blocks = triton.cdiv(L, BLOCK)
    launch = {"num_warps": 4, "num_stages": 1}
    part_loss = torch.empty((Q, n_blocks), device=scores.device, dtype=torch.float32)
    part_cnt = torch.empty((Q, n_blocks), device=scores.device, dtype=torch.float32)
    loss = torch.empty(Q, device=scores.device, dtype=torch.float32)
    _ranknet_partials[(n_blocks, Q)](scores, labels, lengths, part_loss, part_cnt, scores.stride(0), labels.stride(0),
                                     n_blocks, BLOCK_I=BLOCK, BLOCK_J=BLOCK, **launch)
    _ranknet_finalize[(Q,)](part_loss, part_cnt, lengths, loss, n_blocks, BLOCK_I=BLOCK,
                            BLOCK_P=triton.next_power_of_2(n_blocks), num_warps=1)
    return loss
