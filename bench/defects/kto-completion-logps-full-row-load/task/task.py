"""Per-sequence mean log-prob of the completion tokens (TRL / Liger-Kernel KTO and DPO _get_batch_logps, average_log_prob=True) on a right-padded batch."""
import torch

META = {
    "name": "completion_logps",
    "level": 1,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 6, "T": 700},
        "ragged": {"B": 77, "T": 3001},
        "large": {"B": 4096, "T": 8192},
    },
    "baseline_notes": "One program per sequence; 1024-token chunks loaded only where the completion span covers them.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Per-token log-probs [B, T] (<= 0), prompt lengths and sequence lengths (int32, completion >= 1 token)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    B, T = s["B"], s["T"]
    logps = -5.0 * torch.rand(B, T, generator=g)
    prompt = torch.randint(T // 8, T // 2, (B,), generator=g)
    completion = torch.randint(max(1, T // 16), T // 4 + 1, (B,), generator=g)
    seq = torch.minimum(prompt + completion, torch.tensor(T))
    return logps.to(dt).to(device), prompt.int().to(device), seq.int().to(device)


def reference(logps: torch.Tensor, prompt_lens: torch.Tensor, seq_lens: torch.Tensor) -> torch.Tensor:
    t = torch.arange(logps.shape[1], device=logps.device)
    mask = (t[None, :] >= prompt_lens[:, None].long()) & (t[None, :] < seq_lens[:, None].long())
    total = (logps.double() * mask).sum(-1)
    return (total / mask.sum(-1)).to(logps.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    # the completion spans cover about 5/32 of the padded batch
    return {"bytes": s["B"] * s["T"] * 4 * 5 // 32, "flops": s["B"] * s["T"] * 5 // 32}
