"""flair CRF log partition (ViterbiLoss forward algorithm): one program per sentence and time step."""
import torch
import triton
import triton.language as tl


@triton.jit
def _logsumexp_from(s, rows_valid):
    m = tl.max(s, axis=1)
    m = tl.where(rows_valid, m, 0.0)
    return m + tl.log(tl.sum(tl.exp(s - m[:, None]), axis=1))


@triton.jit
def _crf_start(feats, alpha, stride_b, K, BLOCK_K: tl.constexpr):
    b = tl.program_id(0)
    tag = tl.arange(0, BLOCK_K)
    tag_ok = tag < K
    first = tl.load(feats + b * stride_b + tag * K + (K - 2), mask=tag_ok, other=-float("inf"))
    tl.store(alpha + b * BLOCK_K + tag, first)


@triton.jit
def _crf_step(feats, lengths, alpha_in, alpha_out, t, stride_b, stride_t, K, BLOCK_K: tl.constexpr):
    b = tl.program_id(0)
    n = tl.load(lengths + b)
    tag = tl.arange(0, BLOCK_K)
    tag_ok = tag < K
    tile = tag[:, None] * K + tag[None, :]
    tile_ok = tag_ok[:, None] & tag_ok[None, :]
    prev = tl.load(alpha_in + b * BLOCK_K + tag)
    s = tl.load(feats + b * stride_b + t * stride_t + tile, mask=tile_ok, other=-float("inf"))
    nxt = _logsumexp_from(s + prev[None, :], tag_ok)
    tl.store(alpha_out + b * BLOCK_K + tag, tl.where(t < n, nxt, prev))


@triton.jit
def _crf_stop(alpha, trans, logz, K, BLOCK_K: tl.constexpr):
    b = tl.program_id(0)
    tag = tl.arange(0, BLOCK_K)
    tag_ok = tag < K
    final = tl.load(alpha + b * BLOCK_K + tag) + tl.load(trans + (K - 1) * K + tag, mask=tag_ok,
                                                          other=-float("inf"))
    top = tl.max(final, axis=0)
    tl.store(logz + b, top + tl.log(tl.sum(tl.exp(final - top), axis=0)))


def run(crf_scores: torch.Tensor, lengths: torch.Tensor, transitions: torch.Tensor) -> torch.Tensor:
    B, T, K, _ = crf_scores.shape
    logz = torch.empty(B, device=crf_scores.device, dtype=torch.float32)
    BLOCK_K = triton.next_power_of_2(K)
    alpha = torch.empty(B, BLOCK_K, device=crf_scores.device, dtype=torch.float32)
    alpha_next = torch.empty_like(alpha)
    sb, st = crf_scores.stride(0), crf_scores.stride(1)
    _crf_start[(B,)](crf_scores, alpha, sb, K, BLOCK_K=BLOCK_K)
    for t in range(1, T):
        _crf_step[(B,)](crf_scores, lengths, alpha, alpha_next, t, sb, st, K, BLOCK_K=BLOCK_K)
        alpha, alpha_next = alpha_next, alpha
    _crf_stop[(B,)](alpha, transitions, logz, K, BLOCK_K=BLOCK_K)
    return logz
