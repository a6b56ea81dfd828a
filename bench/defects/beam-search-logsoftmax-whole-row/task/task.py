"""One beam-search step's candidate scores (HF transformers _beam_search / vLLM beam search): the running
beam score plus the log-softmax of each beam's next-token logits, next_scores = log_softmax(logits) +
beam_scores[:, None], before the top-(2 * num_beams) selection over num_beams * vocab."""
import torch

META = {
    "name": "beam_step_scores",
    "level": 2,
    "category": "softmax",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-5}},
    "sizes": {
        "small": {"R": 6, "V": 1000},
        "ragged": {"R": 12, "V": 5003},
        "large": {"R": 256, "V": 128256},
    },
    "baseline_notes": "One program per beam row, two passes over 4096-column chunks: an online max / "
                      "sum-exp pass, then a pass writing x - logsumexp + beam_score; 8 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """logits [R, V] (R = batch * num_beams, fp32 as the processors leave them) and beam_scores [R]."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    logits = 4 * torch.randn(s["R"], s["V"], generator=g)
    beam_scores = -3 * torch.rand(s["R"], generator=g)
    return logits.to(device=device, dtype=dt), beam_scores.to(device=device, dtype=dt)


def reference(logits: torch.Tensor, beam_scores: torch.Tensor) -> torch.Tensor:
    out = torch.log_softmax(logits.double(), dim=-1) + beam_scores.double()[:, None]
    return out.to(logits.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["R"] * s["V"]
    return {"bytes": 8 * n + 4 * s["R"], "flops": 5 * n}
