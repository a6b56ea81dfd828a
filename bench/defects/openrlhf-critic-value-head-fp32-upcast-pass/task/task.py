"""PPO critic value head (OpenRLHF CriticModel / TRL ValueHead): one scalar value per token.

values[s] = sum_h hidden[s, h] * w[h] for the last hidden states of a packed micro-batch
(nn.Linear(hidden_size, 1, bias=False) applied to the bf16 backbone output), accumulated in fp32
and returned as fp32.
"""
import torch

META = {
    "name": "critic_value_head",
    "level": 2,
    "category": "gemv",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"S": 64, "H": 512},
        "ragged": {"S": 77, "H": 896},
        "large": {"S": 32768, "H": 4096},
    },
    "baseline_notes": "Programs of 16 tokens looping over the hidden size in 256-wide chunks: bf16 tiles "
                      "upcast in registers, times the head weight, fp32 accumulator reduced once at the end; "
                      "4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """hidden [S, H] (final-norm output, unit scale) and the value-head weight [H], both bf16."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    hidden = torch.randn(s["S"], s["H"], generator=g)
    weight = torch.randn(s["H"], generator=g) / s["H"] ** 0.5
    return hidden.to(device=device, dtype=dt), weight.to(device=device, dtype=dt)


def reference(hidden: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    return (hidden.double() @ weight.double()).float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": item * (s["S"] * s["H"] + s["H"]) + 4 * s["S"], "flops": 2 * s["S"] * s["H"]}
