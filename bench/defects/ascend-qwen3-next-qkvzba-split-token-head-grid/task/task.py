"""Qwen3-Next gated-delta-net input split (vLLM / vLLM-Ascend fused_qkvzba_split_reshape_cat).

in_proj_qkvz gives, per token and per key head, one group [q(Dk) | k(Dk) | v(R*Dv) | z(R*Dv)]
(R = value heads per key head), and in_proj_ba one group [b(R) | a(R)]. The kernel regroups them
into mixed_qkv = [all q | all k | all v] (the causal-conv1d input), z [T, Hv, Dv], b and a [T, Hv].
"""
import torch

META = {
    "name": "qkvzba_split_reshape_cat",
    "level": 1,
    "category": "layout",
    "dtypes": ["bfloat16", "float16"],
    "tolerance": {"bfloat16": {"atol": 0.0, "rtol": 0.0}, "float16": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"T": 6, "Hk": 2, "Hv": 4, "Dk": 16, "Dv": 16},
        "ragged": {"T": 37, "Hk": 3, "Hv": 6, "Dk": 32, "Dv": 16},
        "large": {"T": 8192, "Hk": 4, "Hv": 8, "Dk": 128, "Dv": 128},
    },
    "baseline_notes": "min(40, cdiv(T, 32)) programs striding over 32-token row tiles; per key head a "
                      "[32, Dk] / [32, R*Dv] / [32, R] tile is copied for q, k, v, z, b, a (static loop "
                      "over heads); no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """mixed_qkvz [T, Hk*(2*Dk + 2*R*Dv)] and mixed_ba [T, Hk*2*R], both in the activation dtype."""
    s = META["sizes"][size]
    T, Hk, Hv, Dk, Dv = s["T"], s["Hk"], s["Hv"], s["Dk"], s["Dv"]
    R = Hv // Hk
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    qkvz = torch.randn(T, Hk * (2 * Dk + 2 * R * Dv), generator=g).to(dt)
    ba = torch.randn(T, Hk * 2 * R, generator=g).to(dt)
    return qkvz.to(device), ba.to(device), Hk, Hv, Dk, Dv


def reference(mixed_qkvz, mixed_ba, Hk: int, Hv: int, Dk: int, Dv: int):
    T = mixed_qkvz.shape[0]
    R = Hv // Hk
    q, k, v, z = torch.split(mixed_qkvz.view(T, Hk, -1), [Dk, Dk, R * Dv, R * Dv], dim=-1)
    b, a = torch.split(mixed_ba.view(T, Hk, 2 * R), [R, R], dim=-1)
    mixed_qkv = torch.cat([q.reshape(T, -1), k.reshape(T, -1), v.reshape(T, -1)], dim=-1)
    return mixed_qkv, z.reshape(T, Hv, Dv).clone(), b.reshape(T, Hv).clone(), a.reshape(T, Hv).clone()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    R = s["Hv"] // s["Hk"]
    row = s["Hk"] * (2 * s["Dk"] + 2 * R * s["Dv"] + 2 * R)
    return {"bytes": 2 * s["T"] * row * item, "flops": 0}
