"""Expected transition counts of the Baum-Welch E-step (pomegranate DenseHMM.forward_backward / summarize).

Given the log forward and backward variables of a dense HMM, the log emission probabilities, the log
transition matrix and each sequence's log likelihood, the expected number of i -> j transitions of
sequence b is

    xi[b, i, j] = sum_{t < T-1} exp(alpha[b, t, i] + log_trans[i, j] + log_emis[b, t+1, j] + beta[b, t+1, j] - logp[b]).
"""
import torch

META = {
    "name": "hmm_expected_transitions",
    "level": 2,
    "category": "sequence",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 5e-3}},
    "sizes": {
        "small": {"B": 3, "T": 20, "K": 16},
        "ragged": {"B": 3, "T": 37, "K": 13},
        "large": {"B": 256, "T": 1024, "K": 64},
    },
    "baseline_notes": "One program per sequence looping over 32-step time chunks: the pair posterior is factored "
                      "as exp(alpha - max_t) and exp(emis + beta - max_t + shift_t), summed over time with one "
                      "tl.dot of the two [32, next_pow2(K)] chunks (tf32), times exp(log_trans) at the end; "
                      "no autotune.",
    "deterministic": True,
}


def _forward_backward(log_pi, log_trans, log_emis):
    """Log forward / backward variables and log likelihood of every sequence, in float64."""
    B, T, K = log_emis.shape
    alpha = torch.empty_like(log_emis)
    beta = torch.empty_like(log_emis)
    alpha[:, 0] = log_pi[None, :] + log_emis[:, 0]
    for t in range(1, T):
        alpha[:, t] = torch.logsumexp(alpha[:, t - 1, :, None] + log_trans[None], dim=1) + log_emis[:, t]
    beta[:, T - 1] = 0.0
    for t in range(T - 2, -1, -1):
        beta[:, t] = torch.logsumexp(log_trans[None] + (log_emis[:, t + 1] + beta[:, t + 1])[:, None, :], dim=2)
    logp = torch.logsumexp(alpha[:, T - 1], dim=1)
    return alpha, beta, logp


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """alpha, beta, log_emis [B, T, K]; log_trans [K, K]; logp [B] - from a real forward-backward pass."""
    s = META["sizes"][size]
    B, T, K = s["B"], s["T"], s["K"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    # a sticky dense transition matrix (random rows plus self-loop mass), as after a few EM rounds
    raw = -torch.log(torch.rand(K, K, generator=g).clamp_min(1e-6)) + 4.0 * torch.eye(K)
    log_trans = torch.log(raw / raw.sum(1, keepdim=True)).double()
    log_pi = torch.full((K,), -float(torch.log(torch.tensor(float(K))))).double()
    # per-frame Gaussian log densities of 1-d observations under K state means (unit variance)
    means = torch.linspace(-3.0, 3.0, K).double()
    states = torch.randint(0, K, (B, T), generator=g)
    x = means[states] + torch.randn(B, T, generator=g).double()
    log_emis = -0.5 * (x[:, :, None] - means[None, None, :]) ** 2 - 0.9189385332046727
    alpha, beta, logp = _forward_backward(log_pi.to(device), log_trans.to(device), log_emis.to(device))
    cast = lambda v: v.to(dt).contiguous().to(device)
    return cast(alpha), cast(beta), cast(log_emis), cast(log_trans), cast(logp)


def reference(alpha, beta, log_emis, log_trans, logp):
    B, T, K = alpha.shape
    a, eb = alpha.double(), (log_emis.double() + beta.double())
    lt, lp = log_trans.double(), logp.double()
    xi = torch.zeros(B, K, K, dtype=torch.float64, device=alpha.device)
    for t0 in range(0, T - 1, 16):
        t1 = min(t0 + 16, T - 1)
        pair = a[:, t0:t1, :, None] + lt[None, None] + eb[:, t0 + 1:t1 + 1, None, :] - lp[:, None, None, None]
        xi += torch.exp(pair).sum(dim=1)
    return xi.to(alpha.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    B, T, K = s["B"], s["T"], s["K"]
    return {"bytes": 12 * B * T * K + 4 * B * K * K + 4 * K * K + 4 * B, "flops": 2 * B * T * K * K}
