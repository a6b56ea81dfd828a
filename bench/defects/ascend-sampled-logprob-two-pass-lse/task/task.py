"""Log-probability of each sampled token: logprob[t] = logits[t, ids[t]] - logsumexp(logits[t]), fp32 logits, fp32 result."""
import torch

META = {
    "name": "sampled_logprob",
    "level": 2,
    "category": "softmax",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-5}},
    "sizes": {
        "small": {"T": 6, "V": 5000},
        "ragged": {"T": 301, "V": 32001},
        "large": {"T": 2048, "V": 151936},
    },
    "baseline_notes": "One program per vector core (48 on an A2) looping over rows; each row in one pass over "
                      "8192-column blocks with a running max and a rescaled running sum of exponentials (online "
                      "logsumexp); the sampled logit is one scalar load.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """logits [T, V] (Qwen2.5 vocabulary at large), ids [T] int64 sampled tokens."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    logits = 3.0 * torch.randn(s["T"], s["V"], generator=g)
    ids = torch.randint(0, s["V"], (s["T"],), generator=g)
    return logits.to(getattr(torch, dtype or META["dtypes"][0])).to(device), ids.to(device)


def reference(logits: torch.Tensor, ids: torch.Tensor) -> torch.Tensor:
    x = logits.double()
    return (x.gather(1, ids[:, None])[:, 0] - torch.logsumexp(x, dim=-1)).float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 4 * s["T"] * s["V"] + 12 * s["T"], "flops": 3 * s["T"] * s["V"]}
