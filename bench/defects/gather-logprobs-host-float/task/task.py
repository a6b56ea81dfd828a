"""Token log-prob gather (FlagGems gather along dim 1 / torch.gather(logits.float(), -1, token_ids)): K chosen
entries per row of bf16 log-probs [B, V], returned in fp32."""
import torch

META = {
    "name": "gather_logprobs",
    "level": 1,
    "category": "gather",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"B": 5, "V": 300, "K": 4},
        "ragged": {"B": 333, "V": 32003, "K": 21},
        "large": {"B": 4096, "V": 32000, "K": 20},
    },
    "baseline_notes": "One program per row gathers its K entries from the bf16 matrix and casts them in registers.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """bf16 log-probs [B, V] and int64 token ids [B, K] (the sampled token plus the top-k)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    logprobs = torch.log_softmax(torch.randn(s["B"], s["V"], generator=g), dim=-1).to(dt)
    ids = torch.randint(0, s["V"], (s["B"], s["K"]), generator=g)
    return logprobs.to(device), ids.to(device)


def reference(logprobs: torch.Tensor, ids: torch.Tensor) -> torch.Tensor:
    return torch.gather(logprobs.float(), 1, ids)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": s["B"] * s["K"] * (32 + 8 + 4), "flops": 0}
