"""Speculative-decoding metadata expansion (vLLM v1 RejectionSampler expand_batch_to_tokens, the expand_kernel
vLLM-ascend runs on its vector cores): each request's value (here its sampling temperature, with the greedy
sentinel -1 replaced by 1) repeated over that request's draft tokens, cu_num_tokens inclusive."""
import torch

META = {
    "name": "spec_decode_expand",
    "level": 1,
    "category": "gather",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"B": 9, "K": 4},
        "ragged": {"B": 133, "K": 7},
        "large": {"B": 1024, "K": 4},
    },
    "baseline_notes": "One program per vector core (48 on an A2): program p walks requests p, p + 48, ... and "
                      "writes each request's draft-token span with one masked 128-lane store.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """temperature [B] (about a quarter greedy = -1), cu_num_tokens [B] int32 (inclusive), num_tokens,
    replace_from, replace_to."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    temp = 0.3 + torch.rand(s["B"], generator=g)
    temp[torch.rand(s["B"], generator=g) < 0.25] = -1.0
    num_draft = torch.randint(0, s["K"] + 1, (s["B"],), generator=g)
    cu = torch.cumsum(num_draft, 0)
    return (temp.to(device=device, dtype=dt), cu.to(device=device, dtype=torch.int32), int(cu[-1]), -1.0, 1.0)


def reference(x, cu_num_tokens, num_tokens: int, replace_from: float, replace_to: float) -> torch.Tensor:
    counts = torch.diff(cu_num_tokens.long(), prepend=torch.zeros(1, dtype=torch.long))
    vals = torch.where(x == replace_from, torch.full_like(x, replace_to), x)
    out = torch.repeat_interleave(vals, counts)
    assert out.numel() == num_tokens
    return out


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 8 * s["B"] + 4 * s["B"] * s["K"] // 2, "flops": s["B"]}
