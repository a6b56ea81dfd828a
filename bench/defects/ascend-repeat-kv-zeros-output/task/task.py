"""GQA key/value head repetition (HF transformers repeat_kv: [B, HKV, S, D] -> [B, HKV * N_REP, S, D], head h reads kv head h // N_REP)."""
import torch

META = {
    "name": "repeat_kv",
    "level": 1,
    "category": "layout",
    "dtypes": ["float16", "bfloat16"],
    "tolerance": {"float16": {"atol": 0.0, "rtol": 0.0}, "bfloat16": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"B": 2, "HKV": 2, "N_REP": 3, "S": 40, "D": 32},
        "ragged": {"B": 3, "HKV": 4, "N_REP": 2, "S": 1001, "D": 64},
        "large": {"B": 4, "HKV": 8, "N_REP": 4, "S": 8192, "D": 128},
    },
    "baseline_notes": "One program per vector core (48) looping over (batch * head, 64-row block) tiles: each tile "
                      "loaded from kv head h // N_REP and stored into an uninitialised (torch.empty) output.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """kv [B, HKV, S, D] in the activation dtype and the repeat count."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    kv = torch.randn(s["B"], s["HKV"], s["S"], s["D"], generator=g).to(getattr(torch, dtype or META["dtypes"][0]))
    return kv.to(device), s["N_REP"]


def reference(kv: torch.Tensor, n_rep: int) -> torch.Tensor:
    B, H, S, D = kv.shape
    return kv[:, :, None].expand(B, H, n_rep, S, D).reshape(B, H * n_rep, S, D)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    n = s["B"] * s["HKV"] * s["S"] * s["D"]
    return {"bytes": n * item * (1 + s["N_REP"]), "flops": 0}
