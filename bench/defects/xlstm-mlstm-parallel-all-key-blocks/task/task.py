"""xLSTM mLSTM cell, parallel (quadratic) stabilised forward (xLSTM parallel_stabilized_simple, mlstm_kernels parallel).

With the cumulative log forget gates B = cumsum(logsigmoid(f)) and the input-gate pre-activations I,
log D[i, j] = B[i] - B[j] + I[j] for j <= i (-inf above the diagonal), m[i] = max_j log D[i, j],
C = (q k^T / sqrt(DQK)) * exp(log D - m), n[i] = max(|sum_j C[i, j]|, exp(-m[i])), h = (C / (n + 1e-6)) v.
"""
import math

import torch
import torch.nn.functional as F

META = {
    "name": "mlstm_parallel_stabilized",
    "level": 2,
    "category": "sequence",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 2e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"B": 1, "NH": 2, "S": 160, "DQK": 32, "DV": 64},
        "ragged": {"B": 2, "NH": 1, "S": 101, "DQK": 32, "DV": 64},
        "large": {"B": 2, "NH": 8, "S": 8192, "DQK": 256, "DV": 512},
    },
    "baseline_notes": "Flash-style: programs over (64-query block, 128-wide slice of DV, batch*head), loop over the "
                      "64-key blocks up to the diagonal, gate matrix and running stabiliser max in registers, "
                      "q k^T and C v as bf16 tl.dot with fp32 accumulation; 8 warps, 3 stages, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """q, k [B, NH, S, DQK]; v [B, NH, S, DV]; vecB [B, NH, S] fp32 (cumulative log forget gate); vecI [B, NH, S] fp32."""
    s = META["sizes"][size]
    B, NH, S, DQK, DV = s["B"], s["NH"], s["S"], s["DQK"], s["DV"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    q = torch.randn(B, NH, S, DQK, generator=g)
    k = torch.randn(B, NH, S, DQK, generator=g)
    v = torch.randn(B, NH, S, DV, generator=g)
    # forget-gate bias init of xLSTM (linspace 3..6) plus noise; input-gate pre-activations around -4
    fgate = torch.linspace(3.0, 6.0, NH)[None, :, None] + torch.randn(B, NH, S, generator=g)
    vecB = torch.cumsum(F.logsigmoid(fgate), dim=-1)
    vecI = torch.randn(B, NH, S, generator=g) - 4.0
    return (q.to(dt).to(device), k.to(dt).to(device), v.to(dt).to(device),
            vecB.float().to(device), vecI.float().to(device))


def reference(q, k, v, vecB, vecI) -> torch.Tensor:
    S, DQK = q.shape[2], q.shape[3]
    causal = torch.ones(S, S, dtype=torch.bool, device=q.device).tril()
    out = []
    for b in range(q.shape[0]):
        log_d = vecB[b, :, :, None] - vecB[b, :, None, :] + vecI[b, :, None, :]
        log_d = log_d.masked_fill(~causal, float("-inf"))
        m = log_d.amax(dim=-1, keepdim=True)
        c = (q[b].float() @ k[b].float().transpose(-1, -2)) / math.sqrt(DQK) * torch.exp(log_d - m)
        n = torch.maximum(c.sum(dim=-1, keepdim=True).abs(), torch.exp(-m))
        out.append((c / (n + 1e-6)) @ v[b].float())
    return torch.stack(out).to(q.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    B, NH, S, DQK, DV = s["B"], s["NH"], s["S"], s["DQK"], s["DV"]
    pairs = B * NH * S * (S + 1) // 2
    return {"bytes": 2 * B * NH * S * (2 * DQK + 2 * DV) + 8 * B * NH * S, "flops": 2 * pairs * (DQK + DV)}
