"""Target probabilities of speculative-decoding verification (vLLM v1 RejectionSampler compute_probs):
each request's temperature is expanded to its draft-token rows (greedy requests, temperature -1, use 1.0),
then probs = softmax(target_logits / temperature) over the vocabulary, in fp32."""
import torch

META = {
    "name": "spec_decode_target_probs",
    "level": 2,
    "category": "softmax",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 3, "K": 3, "V": 9000},
        "ragged": {"B": 5, "K": 4, "V": 8193},
        "large": {"B": 64, "K": 4, "V": 128256},
    },
    "baseline_notes": "Three launches: expand the per-request temperature to token rows; one program per row "
                      "computes the online max and sum-of-exp of logits / T; a (row, 4096-wide vocab chunk) grid "
                      "writes exp2(x - max) / sum. 8 warps.",
    "deterministic": True,
}

GREEDY_TEMPERATURE = -1.0


def _num_draft(size: str, g: torch.Generator) -> torch.Tensor:
    s = META["sizes"][size]
    if size == "large":  # every request proposes num_speculative_tokens drafts
        return torch.full((s["B"],), s["K"], dtype=torch.int64)
    return torch.randint(0, s["K"] + 1, (s["B"],), generator=g).clamp_(min=1).index_fill_(0, torch.tensor([1]), 0)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """target_logits [N, V] fp32 (N = total draft tokens), temperature [B] fp32 (-1 = greedy),
    cu_num_draft_tokens [B] int32 (inclusive cumulative draft counts, as vLLM builds them)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    num_draft = _num_draft(size, g)
    n = int(num_draft.sum())
    logits = torch.randn(n, s["V"], generator=g) * 2.5
    hot = torch.randint(0, s["V"], (n, 8), generator=g)
    logits.scatter_add_(1, hot, torch.rand(n, 8, generator=g) * 12.0)
    temperature = torch.rand(s["B"], generator=g) * 1.2 + 0.3
    temperature[torch.rand(s["B"], generator=g) < 0.25] = GREEDY_TEMPERATURE
    cu = num_draft.cumsum(0).to(torch.int32)
    return logits.to(dt).to(device), temperature.to(device), cu.to(device)


def reference(target_logits: torch.Tensor, temperature: torch.Tensor,
              cu_num_draft_tokens: torch.Tensor) -> torch.Tensor:
    counts = torch.diff(cu_num_draft_tokens.long(), prepend=cu_num_draft_tokens.new_zeros(1).long())
    temp = torch.where(temperature == GREEDY_TEMPERATURE, torch.ones_like(temperature), temperature)
    row_temp = torch.repeat_interleave(temp.double(), counts)
    return torch.softmax(target_logits.double() / row_temp[:, None], dim=-1).float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["K"]
    return {"bytes": 8 * n * s["V"] + 8 * s["B"] + 4 * n, "flops": 5 * n * s["V"]}
