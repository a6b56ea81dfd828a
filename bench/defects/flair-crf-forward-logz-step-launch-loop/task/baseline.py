"""flair CRF log partition (ViterbiLoss forward algorithm): one program per sentence, time loop in the kernel."""
import torch
import triton
import triton.language as tl


@triton.jit
def _logsumexp_from(s, rows_valid):
    m = tl.max(s, axis=1)
    m = tl.where(rows_valid, m, 0.0)
    return m + tl.log(tl.sum(tl.exp(s - m[:, None]), axis=1))


@triton.jit
def _crf_forward_logz(feats, lengths, trans, logz, stride_b, stride_t, K, BLOCK_K: tl.constexpr):
    b = tl.program_id(0)
    n = tl.load(lengths + b)
    tag = tl.arange(0, BLOCK_K)
    tag_ok = tag < K
    tile = tag[:, None] * K + tag[None, :]
    tile_ok = tag_ok[:, None] & tag_ok[None, :]
    sent = feats + b * stride_b
    alpha = tl.load(sent + tag * K + (K - 2), mask=tag_ok, other=-float("inf"))
    for t in range(1, n):
        s = tl.load(sent + t * stride_t + tile, mask=tile_ok, other=-float("inf"))
        alpha = _logsumexp_from(s + alpha[None, :], tag_ok)
    final = alpha + tl.load(trans + (K - 1) * K + tag, mask=tag_ok, other=-float("inf"))
    top = tl.max(final, axis=0)
    tl.store(logz + b, top + tl.log(tl.sum(tl.exp(final - top), axis=0)))


def run(crf_scores: torch.Tensor, lengths: torch.Tensor, transitions: torch.Tensor) -> torch.Tensor:
    B, T, K, _ = crf_scores.shape
    logz = torch.empty(B, device=crf_scores.device, dtype=torch.float32)
    BLOCK_K = triton.next_power_of_2(K)
    _crf_forward_logz[(B,)](crf_scores, lengths, transitions, logz, crf_scores.stride(0), crf_scores.stride(1),
                            K, BLOCK_K=BLOCK_K)
    return logz
