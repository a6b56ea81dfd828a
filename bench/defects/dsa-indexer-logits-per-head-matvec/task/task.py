"""DeepSeek-V3.2 (DSA) lightning-indexer logits, the MQA form of vLLM's fp8_mqa_logits in bf16:
logits[t, s] = sum_h w[t, h] * relu(q[t, h, :] . k[s, :]), for 64 index heads of dim 128 sharing one key."""
import torch

META = {
    "name": "dsa_indexer_mqa_logits",
    "level": 2,
    "category": "gemm",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 2e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"T": 3, "S": 80, "H": 16, "D": 32},
        "ragged": {"T": 5, "S": 97, "H": 16, "D": 32},
        "large": {"T": 1024, "S": 8192, "H": 64, "D": 128},
    },
    "baseline_notes": "grid (token, block of 64 keys): the token's [64 heads, 128] query tile times the key tile "
                      "transposed in one tl.dot (fp32 accumulate), relu, weighted by w[t, :] and summed over heads.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Index queries q [T, H, D], index keys k [S, D] (bf16) and per-head weights w [T, H] (fp32)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    q = torch.randn(s["T"], s["H"], s["D"], generator=g).to(dt)
    k = torch.randn(s["S"], s["D"], generator=g).to(dt)
    w = torch.randn(s["T"], s["H"], generator=g) * s["H"] ** -0.5 * s["D"] ** -0.5
    return q.to(device), k.to(device), w.to(device)


def reference(q: torch.Tensor, k: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    scores = torch.einsum("thd,sd->ths", q.double(), k.double()).clamp(min=0)
    return (scores * w.double()[:, :, None]).sum(dim=1).float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    T, S, H, D = s["T"], s["S"], s["H"], s["D"]
    return {"bytes": 2 * T * H * D + 2 * S * D + 4 * T * H + 4 * T * S, "flops": 2 * T * S * H * D + 3 * T * S * H}
