"""DLinear with individual=True (LTSF-Linear models/DLinear.py, MindSpore port): one seasonal and one trend
nn.Linear(seq_len, pred_len) per channel, applied to the decomposed input and summed.

    out[b, c, :] = W_s[c] @ seasonal[b, c, :] + b_s[c] + W_t[c] @ trend[b, c, :] + b_t[c]

seasonal and trend are the series-decomposition outputs already permuted to [B, C, S]; the result is
[B, C, P] (the model's final permute to [B, P, C] is a view). fp16 (MindSpore AMP on Ascend), fp32 accumulation.
"""
import torch

META = {
    "name": "dlinear_individual_projection",
    "level": 2,
    "category": "gemm",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 1e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"B": 2, "C": 3, "S": 40, "P": 24},
        "ragged": {"B": 3, "C": 5, "S": 61, "P": 45},
        "large": {"B": 16, "C": 321, "S": 336, "P": 720},
    },
    "baseline_notes": "One launch, persistent grid of 20 programs (one per AI cube core) over (channel, 128-wide "
                      "block of P) tiles: for each tile a K loop over S in 128 steps with two tl.dot calls "
                      "(seasonal and trend, weights loaded row-major and transposed on chip), fp32 accumulator, "
                      "both biases added, fp16 store; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """seasonal, trend [B, C, S]; w_s, w_t [C, P, S]; b_s, b_t [C, P] (nn.Linear-style uniform init)."""
    s = META["sizes"][size]
    B, C, S, P = s["B"], s["C"], s["S"], s["P"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    bound = 1.0 / S ** 0.5
    uni = lambda *shape: (torch.rand(*shape, generator=g) * 2 - 1) * bound
    trend = torch.randn(B, C, S, generator=g).cumsum(-1) / S ** 0.5
    seasonal = torch.randn(B, C, S, generator=g)
    tensors = (seasonal, trend, uni(C, P, S), uni(C, P), uni(C, P, S), uni(C, P))
    return tuple(t.to(dt).to(device) for t in tensors)


def reference(seasonal, trend, w_s, b_s, w_t, b_t) -> torch.Tensor:
    ys = torch.einsum("bcs,cps->bcp", seasonal.float(), w_s.float()) + b_s.float()
    yt = torch.einsum("bcs,cps->bcp", trend.float(), w_t.float()) + b_t.float()
    return (ys + yt).to(seasonal.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    B, C, S, P = s["B"], s["C"], s["S"], s["P"]
    return {"bytes": 2 * (2 * C * P * S + 2 * B * C * S + 2 * C * P + B * C * P), "flops": 4 * B * C * P * S}
