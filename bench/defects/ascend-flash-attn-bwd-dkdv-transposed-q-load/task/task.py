"""FlashAttention-2 backward, the dK/dV half (causal, [B, H, S, D]): given Q, K, V, dO and the forward's
per-row log-sum-exp (LSE) and Delta = rowsum(dO * O), return dK and dV in the input dtype.
P = exp(scale * Q K^T - LSE) (causal), dV = P^T dO, dS = P * (dO V^T - Delta), dK = scale * dS^T Q."""
import math

import torch

META = {
    "name": "flash_attn_bwd_dkdv",
    "level": 2,
    "category": "attention",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 3e-2, "rtol": 3e-2}},
    "sizes": {
        "small": {"B": 1, "H": 2, "S": 128, "D": 64},
        "ragged": {"B": 1, "H": 3, "S": 200, "D": 64},
        "large": {"B": 1, "H": 32, "S": 4096, "D": 128},
    },
    "baseline_notes": "Grid of 20 programs (one per cube core), each looping over (head, 128-key block) tasks: "
                      "K and V tiles stay on chip, the loop over 64-query tiles from the diagonal on loads Q "
                      "and dO row-major and feeds tl.trans(Q) / tl.trans(dO) to tl.dot; fp32 dK/dV accumulators.",
    "deterministic": True,
}


def _causal_scores(q: torch.Tensor, k: torch.Tensor, scale: float) -> torch.Tensor:
    s = torch.matmul(q, k.transpose(-1, -2)) * scale
    n = q.shape[-2]
    keep = torch.ones(n, n, dtype=torch.bool, device=q.device).tril()
    return s.masked_fill(~keep, float("-inf"))


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """q, k, v, do [B, H, S, D] in dtype; lse, delta [B, H, S] fp32 from an fp32 forward of the same inputs."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    shape = (s["B"], s["H"], s["S"], s["D"])
    q, k, v, do = (torch.randn(shape, generator=g).to(dt).to(device) for _ in range(4))
    scale = 1.0 / math.sqrt(s["D"])
    lse = torch.empty(shape[:3], dtype=torch.float32, device=device)
    delta = torch.empty_like(lse)
    for b in range(s["B"]):  # one batch row at a time keeps the [H, S, S] scores small
        scores = _causal_scores(q[b].float(), k[b].float(), scale)
        lse[b] = torch.logsumexp(scores, dim=-1)
        o = torch.matmul(torch.softmax(scores, dim=-1), v[b].float()).to(dt)
        delta[b] = (do[b].float() * o.float()).sum(-1)
    return q, k, v, do, lse, delta


def reference(q, k, v, do, lse, delta) -> tuple:
    scale = 1.0 / math.sqrt(q.shape[-1])
    dk = torch.empty_like(k)
    dv = torch.empty_like(v)
    for b in range(q.shape[0]):
        qf, kf, vf, dof = (t[b].float() for t in (q, k, v, do))
        p = torch.exp(_causal_scores(qf, kf, scale) - lse[b][..., None])
        dv[b] = torch.matmul(p.transpose(-1, -2), dof).to(v.dtype)
        ds = p * (torch.matmul(dof, vf.transpose(-1, -2)) - delta[b][..., None])
        dk[b] = (scale * torch.matmul(ds.transpose(-1, -2), qf)).to(k.dtype)
    return dk, dv


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    bh, n, d = s["B"] * s["H"], s["S"], s["D"]
    return {"bytes": 6 * bh * n * d * item + 8 * bh * n,
            "flops": 4 * 2 * bh * d * n * (n + 1) // 2}
