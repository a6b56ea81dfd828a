"""Recovered tokens of speculative-decoding rejection sampling (vLLM v1 RejectionSampler,
sample_recovered_tokens): for every draft position i of request r, the token drawn from the residual
distribution max(p_target - p_draft, 0), as argmax_v( max(p_target[i, v] - p_draft[i, v], 0) / q[r, v] )
with q[r] the request's Exponential(1) noise (the exponential race). Output int32 [num_draft_tokens]."""
import torch

META = {
    "name": "spec_decode_recovered_tokens",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"B": 3, "S": 3, "V": 1000},
        "ragged": {"B": 5, "S": 4, "V": 3001},
        "large": {"B": 64, "S": 4, "V": 151936},
    },
    "baseline_notes": "Grid (request, draft position); each program streams its target row, draft row and the "
                      "request's noise row once in 8,192-wide chunks, carrying the running max and its index.",
    "deterministic": True,
}


def _probs(n: int, v: int, g: torch.Generator, temp: float) -> torch.Tensor:
    logits = torch.randn(n, v, generator=g) * temp
    return torch.softmax(logits, dim=-1)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """cu_num_draft_tokens [B] int32 (ragged, 1..S per request), draft_probs and target_probs
    [num_draft_tokens, V] fp32, q [B, V] fp32 Exponential(1) noise, and max_spec_len (host int)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    B, S, V = s["B"], s["S"], s["V"]
    num_draft = torch.randint(1, S + 1, (B,), generator=g)
    num_draft[0] = S
    if size == "large":
        num_draft[:] = S
    cu = torch.cumsum(num_draft, 0).to(torch.int32)
    n = int(cu[-1])
    target = _probs(n, V, g, 3.0)
    draft = (0.7 * target + 0.3 * _probs(n, V, g, 3.0)).contiguous()
    q = torch.empty(B, V).exponential_(generator=g)
    return (cu.to(device), draft.to(dt).to(device), target.to(dt).to(device), q.to(dt).to(device), S)


def reference(cu_num_draft_tokens, draft_probs, target_probs, q, max_spec_len):
    n = target_probs.shape[0]
    num_draft = torch.diff(cu_num_draft_tokens.long(), prepend=cu_num_draft_tokens.new_zeros(1).long())
    req = torch.repeat_interleave(torch.arange(q.shape[0], device=q.device), num_draft, output_size=n)
    residual = torch.clamp_min(target_probs.float() - draft_probs.float(), 0.0)
    score = residual / q.float()[req]
    return torch.argmax(score, dim=-1).to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["S"]
    return {"bytes": 4 * (2 * n * s["V"] + s["B"] * s["V"] + s["B"] + n), "flops": 3 * n * s["V"]}
