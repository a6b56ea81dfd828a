"""Baum-Welch expected transition counts (pomegranate DenseHMM): one program per sequence, 32-step time chunks."""
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
    lp = tl.load(logp + b)
    acc = tl.zeros([BLOCK_K, BLOCK_K], dtype=tl.float32)
    for t0 in range(0, T - 1, BLOCK_T):
        t = t0 + tl.arange(0, BLOCK_T)
        t_ok = t < T - 1
        m = t_ok[:, None] & state_ok[None, :]
        a = tl.load(alpha + seq + t[:, None] * K + state[None, :], mask=m, other=-float("inf"))
        nxt = seq + (t[:, None] + 1) * K + state[None, :]
        eb = (tl.load(emis + nxt, mask=m, other=-float("inf"))
              + tl.load(beta + nxt, mask=m, other=-float("inf")))
        ca = tl.where(t_ok, tl.max(a, axis=1), 0.0)
        cb = tl.where(t_ok, tl.max(eb, axis=1), 0.0)
        p = tl.exp(a - ca[:, None])
        q = tl.exp((eb - cb[:, None]) + (ca + cb - lp)[:, None])
        acc = tl.dot(tl.trans(p), q, acc)
    pair = state[:, None] * K + state[None, :]
    pair_ok = state_ok[:, None] & state_ok[None, :]
    lt = tl.load(log_trans + pair, mask=pair_ok, other=-float("inf"))
    tl.store(xi + b * K * K + pair, acc * tl.exp(lt), mask=pair_ok)


def run(alpha, beta, log_emis, log_trans, logp):
    B, T, K = alpha.shape
    xi = torch.empty(B, K, K, device=alpha.device, dtype=torch.float32)
    BLOCK_K = max(16, triton.next_power_of_2(K))
    _expected_transitions[(B,)](alpha, beta, log_emis, log_trans, logp, xi, T, K, BLOCK_T=32, BLOCK_K=BLOCK_K)
    return xi
