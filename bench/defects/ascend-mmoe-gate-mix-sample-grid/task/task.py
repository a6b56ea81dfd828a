"""MMoE expert-gate mixing for multi-task towers (MMoE, Ma et al. KDD 2018; DeepCTR MMOE /
PaddleRec mmoe / Tencent PLE towers): each task t softmaxes its gate logits over the E experts
and mixes the experts' outputs, tower_in[t, b, :] = sum_e softmax(g[b, t, :])_e * x[b, e, :].
"""
import torch

META = {
    "name": "mmoe_gate_mix",
    "level": 2,
    "category": "recommendation",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 2e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"B": 5, "E": 4, "T": 2, "H": 32},
        "ragged": {"B": 23, "E": 6, "T": 3, "H": 80},
        "large": {"B": 16384, "E": 8, "T": 3, "H": 256},
    },
    "baseline_notes": "Grid = min(40 vector cores, blocks); each program loops over blocks of 4 samples, "
                      "loads the [4, E, H] expert block once, softmaxes each task's [4, E] gate logits "
                      "and reduces over the expert axis in fp32; bf16 out.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [B, E, H] expert outputs (torch.stack(experts, dim=1)), gate_logits [B, T, E] fp32."""
    s = META["sizes"][size]
    B, E, T, H = s["B"], s["E"], s["T"], s["H"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.randn(B, E, H, generator=g)
    gate_logits = torch.randn(B, T, E, generator=g) * 2.0
    return x.to(dt).to(device), gate_logits.to(device)


def reference(x: torch.Tensor, gate_logits: torch.Tensor) -> torch.Tensor:
    p = torch.softmax(gate_logits.double(), dim=-1)
    return torch.einsum("bte,beh->tbh", p, x.double()).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    B, E, T, H = s["B"], s["E"], s["T"], s["H"]
    return {"bytes": 2 * B * E * H + 4 * B * T * E + 2 * T * B * H, "flops": 2 * B * T * E * H + 4 * B * T * E}
