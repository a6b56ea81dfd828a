"""flair CRF log partition: the forward algorithm of flair's ViterbiLoss over the CRF scores.

flair's CRF layer hands the loss crf_scores[b, t, to, from] = emission[b, t, to] + transitions[to, from]
([B, T, K, K]); the tag dictionary ends with <START> (K - 2) and <STOP> (K - 1). For each sentence of
length n: alpha_0[to] = crf_scores[b, 0, to, START], alpha_t[to] = logsumexp_from(crf_scores[b, t, to, from]
+ alpha_{t-1}[from]) for 1 <= t < n, and log Z = logsumexp_from(alpha_{n-1}[from] + transitions[STOP, from]).
"""
import torch

META = {
    "name": "crf_forward_logz",
    "level": 2,
    "category": "sequence",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 4, "T": 10, "K": 20},
        "ragged": {"B": 5, "T": 13, "K": 11},
        "large": {"B": 32, "T": 124, "K": 20},
    },
    "baseline_notes": "One program per sentence holding alpha as a next_pow2(K) vector; the time loop runs "
                      "inside the kernel up to the sentence's length, each step a [K, K] tile of crf scores "
                      "plus alpha, max-subtracted log-sum-exp over the from axis; one launch, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """crf_scores [B, T, K, K], lengths [B] int32 (sorted descending, as flair sorts a batch), transitions [K, K]."""
    s = META["sizes"][size]
    B, T, K = s["B"], s["T"], s["K"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    start, stop = K - 2, K - 1
    transitions = torch.randn(K, K, generator=g)
    transitions[start, :] = -10000.0   # nothing moves into <START>
    transitions[:, stop] = -10000.0    # nothing leaves <STOP>
    emissions = torch.randn(B, T, K, generator=g) * 2.0
    crf_scores = emissions[:, :, :, None] + transitions[None, None, :, :]
    lengths = torch.randint(max(1, T // 4), T + 1, (B,), generator=g)
    lengths[0] = T
    lengths = torch.sort(lengths, descending=True).values
    return (crf_scores.to(dt).contiguous().to(device), lengths.to(torch.int32).to(device),
            transitions.to(dt).to(device))


def reference(crf_scores: torch.Tensor, lengths: torch.Tensor, transitions: torch.Tensor) -> torch.Tensor:
    B, T, K, _ = crf_scores.shape
    feats = crf_scores.double()
    alpha = feats[:, 0, :, K - 2]
    for t in range(1, T):
        nxt = torch.logsumexp(feats[:, t] + alpha[:, None, :], dim=2)
        alpha = torch.where((t < lengths.long())[:, None], nxt, alpha)
    logz = torch.logsumexp(alpha + transitions.double()[K - 1][None, :], dim=1)
    return logz.to(crf_scores.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    B, T, K = s["B"], s["T"], s["K"]
    return {"bytes": 4 * B * T * K * K + 4 * K * K + 8 * B, "flops": 4 * B * T * K * K}
