"""Sampler probabilities of a decode batch (vLLM Sampler: logits / temperature then softmax in fp32) over the Qwen2 vocabulary."""
import torch

META = {
    "name": "sampler_probs",
    "level": 1,
    "category": "softmax",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 3, "V": 5000},
        "ragged": {"B": 5, "V": 32001},
        "large": {"B": 8, "V": 152064},
    },
    "baseline_notes": "Two launches over (row, 4096-column chunk): per-chunk max and rescaled sum of exp, then each "
                      "chunk program combines its row's partials and writes its probabilities; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """logits [B, V] fp32 and temperatures [B] fp32 (one per request)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    logits = 4.0 * torch.randn(s["B"], s["V"], generator=g)
    temps = 0.5 + torch.rand(s["B"], generator=g)
    return logits.to(device), temps.to(device)


def reference(logits: torch.Tensor, temps: torch.Tensor) -> torch.Tensor:
    return torch.softmax(logits.double() / temps.double()[:, None], dim=-1).float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 8 * s["B"] * s["V"] + 4 * s["B"], "flops": 4 * s["B"] * s["V"]}
