"""Final-logit processing of a Gemma-2 decode step in an LLM server: soft-capping of the lm_head logits,
cap * tanh(x / cap) with cap = 30 (Gemma-2 final_logit_softcapping), then the sampler's per-request
temperature, in fp32. Input bf16 [B, V], output fp32 [B, V]."""
import torch

META = {
    "name": "gemma2_logits_softcap_temperature",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 4, "V": 3000},
        "ragged": {"B": 3, "V": 2999},
        "large": {"B": 128, "V": 256000},
    },
    "baseline_notes": "One fused elementwise kernel, 2-D grid (request, block of 2048 vocab ids): bf16 load, "
                      "softcap via exp, multiply by 1 / temperature, fp32 store.",
    "deterministic": True,
}

SOFTCAP = 30.0


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """logits [B, V] (bf16, lm_head output) and per-request temperatures [B] fp32 in [0.3, 1.5]."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    logits = torch.randn(s["B"], s["V"], generator=g) * 12.0
    temp = 0.3 + torch.rand(s["B"], generator=g) * 1.2
    return logits.to(dt).to(device), temp.to(device), SOFTCAP


def reference(logits: torch.Tensor, temperature: torch.Tensor, softcap: float) -> torch.Tensor:
    x = logits.double()
    x = torch.tanh(x / softcap) * softcap
    return (x / temperature.double()[:, None]).float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["V"]
    return {"bytes": n * (2 + 4) + 4 * s["B"], "flops": 8 * n}
