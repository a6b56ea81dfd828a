"""Baum-Welch expected transition counts (pomegranate DenseHMM): one program per sequence, 4-step time chunks."""
import torch
import triton
import triton.language as tl


@triton.jit
def _expected_transitions(alpha, beta, emis, log_trans, logp, xi, T, K,
                          BLOCK_T: tl.constexpr, BLOCK_K: tl.constexpr):
    b = tl.program_id(0)
    seq = b.to(tl.int64) * T * K
    state = tl.arange(0, BLOCK_K)
    state_ok = state < K
    pair = state[:, None] * K + state[None, :]
    pair_ok = state_ok[:, None] & state_ok[None, :]
    lt = tl.load(log_trans + pair, mask=pair_ok, other=-float("inf"))
    lp = tl.load(logp + b)
    acc = tl.zeros([BLOCK_K, BLOCK_K], dtype=tl.float32)
    for t0 in range(0, T - 1, BLOCK_T):
        t = t0 + tl.arange(0, BLOCK_T)
        m = (t < T - 1)[:, None] & state_ok[None, :]
        a = tl.load(alpha + seq + t[:, None] * K + state[None, :], mask=m, other=-float("inf"))
        nxt = seq + (t[:, None] + 1) * K + state[None, :]
        eb = (tl.load(emis + nxt, mask=m, other=-float("inf"))
              + tl.load(beta + nxt, mask=m, other=-float("inf")))
        log_pair = a[:, :, None] + lt[None, :, :] + (eb - lp)[:, None, :]
        acc += tl.sum(tl.exp(log_pair), axis=0)
    tl.store(xi + b * K * K + pair, acc, mask=pair_ok)


def run(alpha, beta, log_emis, log_trans, logp):
    B, T, K = alpha.shape
    xi = torch.empty(B, K, K, device=alpha.device, dtype=torch.float32)
    BLOCK_K = max(16, triton.next_power_of_2(K))
    _expected_transitions[(B,)](alpha, beta, log_emis, log_trans, logp, xi, T, K, BLOCK_T=4, BLOCK_K=BLOCK_K,
                                num_warps=8)
    return xi
