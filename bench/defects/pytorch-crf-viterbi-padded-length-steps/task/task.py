"""pytorch-crf Viterbi decoding (torchcrf.CRF.decode, batch_first=True) over a padded batch.

For each sentence of length n (mask = first n positions): score_0 = start + emissions[0];
score_t[j] = max_i(score_{t-1}[i] + transitions[i, j]) + emissions[t, j] for 1 <= t < n, with the argmax
kept as a backpointer; the best last tag is argmax(score_{n-1} + end), and the path is read back through the
backpointers. Outputs: tags [B, T] int32 (0 past the sentence end) and the best path score [B].
"""
import torch

META = {
    "name": "crf_viterbi_decode",
    "level": 2,
    "category": "sequence",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-5}},
    "sizes": {
        "small": {"B": 6, "T": 24, "K": 9, "median_len": 14},
        "ragged": {"B": 7, "T": 37, "K": 13, "median_len": 20},
        "large": {"B": 8192, "T": 512, "K": 9, "median_len": 20},
    },
    "baseline_notes": "One program per sentence (1 warp), the transition matrix held as a [next_pow2(K)]^2 tile; "
                      "the time loop runs to the sentence's own length: max-plus step with "
                      "tl.max(return_indices=True), int8 backpointers to a scratch buffer, then a barrier and "
                      "the backtrace in the same program; padding of the tag row stored as 0; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """emissions [B, T, K], lengths [B] int32, start [K], end [K], transitions [K, K].

    Sentence lengths follow a log-normal around median_len subword tokens (CoNLL-2003 sentences after
    WordPiece), padded to T = max_length.
    """
    s = META["sizes"][size]
    B, T, K = s["B"], s["T"], s["K"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    emissions = torch.randn(B, T, K, generator=g) * 2.0
    lengths = (torch.exp(torch.randn(B, generator=g) * 0.6) * s["median_len"]).round().clamp(1, T)
    start = torch.empty(K).uniform_(-0.1, 0.1, generator=g)      # torchcrf's reset_parameters
    end = torch.empty(K).uniform_(-0.1, 0.1, generator=g)
    transitions = torch.empty(K, K).uniform_(-0.1, 0.1, generator=g) + torch.randn(K, K, generator=g)
    return (emissions.to(dt).to(device), lengths.to(torch.int32).to(device), start.to(dt).to(device),
            end.to(dt).to(device), transitions.to(dt).to(device))


def reference(emissions, lengths, start, end, transitions):
    B, T, K = emissions.shape
    lens = lengths.long()
    score = start[None, :] + emissions[:, 0]
    history = []
    for t in range(1, T):
        best, idx = (score[:, :, None] + transitions[None]).max(dim=1)
        nxt = best + emissions[:, t]
        score = torch.where((t < lens)[:, None], nxt, score)
        history.append(idx)
    best_score, last = (score + end[None, :]).max(dim=1)
    tags = torch.zeros(B, T, dtype=torch.long, device=emissions.device)
    tags.scatter_(1, (lens - 1)[:, None], last[:, None])
    cur = last
    for t in range(T - 1, 0, -1):
        active = t < lens
        prev = history[t - 1].gather(1, cur[:, None]).squeeze(1)
        cur = torch.where(active, prev, cur)
        tags[:, t - 1] = torch.where(active, cur, tags[:, t - 1])
    return tags.to(torch.int32), best_score


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    B, T, K = s["B"], s["T"], s["K"]
    return {"bytes": 4 * B * T * K + 4 * B * T + 4 * K * K + 12 * B, "flops": 2 * B * T * K * K}
