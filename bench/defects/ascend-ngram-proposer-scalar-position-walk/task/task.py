"""N-gram (prompt-lookup) speculative proposer: the vLLM NGramWorker rule, batched over requests.

For each request with history tokens[:n], for ngram size g from min(MAX_N, n - 1) down to MIN_N:
find the first window tokens[p:p+g] (p <= n - g - 1, i.e. excluding the suffix itself) equal to
the suffix tokens[n-g:n]; the first g that has a match wins and the K drafts are
tokens[min(p + g + j, n - 1)] for j < K. A request with no match gets K drafts of -1.
"""
import torch

MIN_N, MAX_N, K = 2, 4, 5

META = {
    "name": "ngram_propose",
    "level": 2,
    "category": "speculative-decoding",
    "dtypes": ["int32"],
    "tolerance": {"int32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"B": 5, "L": 48, "vocab": 5},
        "ragged": {"B": 7, "L": 83, "vocab": 9},
        "large": {"B": 128, "L": 16384, "vocab": 151936},
    },
    "baseline_notes": "min(B, 40) programs, each takes whole requests in turn and sweeps the history in "
                      "1,024-position tiles: MAX_N shifted contiguous loads, fp32 token compares, run-length "
                      "of the suffix match, one packed fp32 max per tile for (longest n, first position); "
                      "then a K-wide clamped gather of the drafts.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """tokens [B, L] int32 (history, zero padded past its length), lengths [B] int32.

    Three requests in four end by repeating an earlier span of their own history (code edits,
    retrieval answers quoting the prompt), so the suffix n-gram recurs; the rest are plain.
    """
    s = META["sizes"][size]
    B, L, V = s["B"], s["L"], s["vocab"]
    g = torch.Generator().manual_seed(seed)
    tokens = torch.randint(0, V, (B, L), generator=g)
    lengths = torch.randint(L // 2, L + 1, (B,), generator=g)
    lengths[0] = L
    for b in range(B):
        n = int(lengths[b])
        if b % 4 != 3:
            span = int(torch.randint(4, max(5, n // 8), (1,), generator=g))
            src = int(torch.randint(0, n - 2 * span, (1,), generator=g))
            tokens[b, n - span:n] = tokens[b, src:src + span].clone()
        tokens[b, n:] = 0
    return tokens.to(torch.int32).to(device), lengths.to(torch.int32).to(device)


def reference(tokens: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
    B = tokens.shape[0]
    out = torch.full((B, K), -1, dtype=torch.int32, device=tokens.device)
    for b in range(B):
        n = int(lengths[b])
        ids = tokens[b, :n].long()
        for g in range(min(MAX_N, n - 1), MIN_N - 1, -1):
            windows = ids.unfold(0, g, 1)[:-1]
            hits = (windows == ids[-g:]).all(dim=-1)
            if bool(hits.any()):
                start = int(hits.int().argmax()) + g
                idx = (start + torch.arange(K, device=ids.device)).clamp(max=n - 1)
                out[b] = ids[idx].to(torch.int32)
                break
    return out


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 4 * s["B"] * s["L"] + 4 * s["B"] * (K + 1), "flops": 3 * MAX_N * s["B"] * s["L"]}
