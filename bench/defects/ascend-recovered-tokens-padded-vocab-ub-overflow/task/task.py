"""Recovered-token sampling of speculative decoding's rejection sampler (vLLM / vLLM-ascend
sample_recovered_tokens): for every draft position, the token drawn from the residual distribution
max(target_probs - draft_probs, 0) by the exponential race argmax(residual / q), q ~ Exp(1) per request
and vocab id. Output int32 [B * K]."""
import torch

META = {
    "name": "spec_decode_recovered_tokens",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"B": 3, "K": 2, "V": 1000},
        "ragged": {"B": 5, "K": 3, "V": 4999},
        "large": {"B": 64, "K": 4, "V": 152064},
    },
    "baseline_notes": "Grid of 40 programs (the 910B's AIV cores), each looping over draft positions; the vocab "
                      "is walked in 4,096-id UB tiles with a running (max, argmax) kept as scalars.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """target_probs, draft_probs [B*K, V] (softmaxes of correlated logits), q [B, V] exponential noise, K."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    B, K, V = s["B"], s["K"], s["V"]
    base = torch.randn(B * K, V, generator=g) * 3.0
    target = torch.softmax(base, dim=-1)
    draft = torch.softmax(base + torch.randn(B * K, V, generator=g), dim=-1)
    q = -torch.log(torch.rand(B, V, generator=g).clamp_min(1e-12))
    return target.to(dt).to(device), draft.to(dt).to(device), q.to(dt).to(device), K


def reference(target_probs, draft_probs, q, num_spec: int) -> torch.Tensor:
    resid = (target_probs - draft_probs).clamp_min(0.0)
    qq = q.repeat_interleave(num_spec, dim=0)
    return torch.argmax(resid / qq, dim=-1).to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["K"] * s["V"]
    return {"bytes": 4 * 2 * n + 4 * s["B"] * s["V"] + 4 * s["B"] * s["K"], "flops": 4 * n}
