"""vLLM sampler apply_penalties: repetition (prompt or output tokens), frequency and presence penalties on logits [B, V]."""
import torch

META = {
    "name": "apply_penalties",
    "level": 2,
    "category": "fused",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"B": 4, "V": 1000},
        "ragged": {"B": 37, "V": 32_001},
        "large": {"B": 256, "V": 152_064},
    },
    "baseline_notes": "One kernel, 2-D grid (row, 4096-column block): loads the logits, the output-token counts "
                      "and the prompt mask once, applies the repetition, frequency and presence penalties in "
                      "registers, one store; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """logits [B, V] fp32, output-token counts [B, V] int32 (sparse), prompt mask [B, V] bool, and the
    per-request repetition, frequency and presence penalties [B]."""
    s = META["sizes"][size]
    B, V = s["B"], s["V"]
    g = torch.Generator().manual_seed(seed)
    logits = 3 * torch.randn(B, V, generator=g)
    seen = torch.rand(B, V, generator=g) < 0.02
    counts = torch.where(seen, torch.randint(1, 6, (B, V), generator=g), 0).to(torch.int32)
    prompt_mask = torch.rand(B, V, generator=g) < 0.01
    rep = 1.0 + 0.3 * torch.rand(B, generator=g)
    freq = 0.5 * torch.rand(B, generator=g)
    pres = 0.5 * torch.rand(B, generator=g)
    return tuple(t.to(device) for t in (logits, counts, prompt_mask, rep, freq, pres))


def reference(logits, counts, prompt_mask, rep, freq, pres) -> torch.Tensor:
    output_mask = counts > 0
    penalty = torch.where(prompt_mask | output_mask, rep[:, None], 1.0)
    out = torch.where(logits > 0, logits / penalty, logits * penalty)
    out = out - freq[:, None] * counts
    return out - pres[:, None] * output_mask


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["V"]
    return {"bytes": n * (4 + 4 + 1 + 4) + 12 * s["B"], "flops": 6 * n}
