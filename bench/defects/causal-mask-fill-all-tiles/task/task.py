"""Causal attention backward, key side (flash-attention's dK / dV pass): given q, k, v, dO, the forward's
row log-sum-exp and delta = rowsum(dO * O), dV = P^T dO and dK = scale * dS^T Q with dS = P * (dO V^T - delta)."""
import torch

META = {
    "name": "attention_bwd_dkdv",
    "level": 3,
    "category": "attention",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 2e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"B": 1, "H": 2, "S": 128, "D": 32},
        "ragged": {"B": 1, "H": 3, "S": 200, "D": 64},
        "large": {"B": 2, "H": 32, "S": 4096, "D": 128},
    },
    "baseline_notes": "One program per (128-key block, batch*head) holding K, V and the dK, dV accumulators; it "
                      "walks 64-query blocks from its own diagonal to the end of the sequence (earlier query blocks "
                      "cannot see these keys), recomputing P from the saved log-sum-exp; 8 warps, 4 fp16 tl.dots "
                      "per step.",
    "deterministic": True,
}


def _scores(q, k, scale):
    s = torch.matmul(q, k.transpose(-1, -2)) * scale
    n = q.shape[-2]
    causal = torch.ones(n, n, dtype=torch.bool, device=q.device).tril()
    return s.masked_fill(~causal, float("-inf"))


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """q, k, v, do [B, H, S, D]; lse, delta [B, H, S] fp32 from the causal forward; scale 1/sqrt(D)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    q, k, v, do = (torch.randn(s["B"], s["H"], s["S"], s["D"], generator=g).to(dt).to(device) for _ in range(4))
    scale = s["D"] ** -0.5
    lse = torch.empty(s["B"], s["H"], s["S"], dtype=torch.float32, device=device)
    delta = torch.empty_like(lse)
    for b in range(s["B"]):  # one batch row at a time keeps the [H, S, S] scores small
        sc = _scores(q[b].float(), k[b].float(), scale)
        lse[b] = torch.logsumexp(sc, dim=-1)
        o = torch.matmul(torch.softmax(sc, dim=-1), v[b].float()).to(dt)
        delta[b] = (o.float() * do[b].float()).sum(-1)
    return q, k, v, do, lse, delta, scale


def reference(q, k, v, do, lse, delta, scale) -> tuple:
    dk = torch.empty_like(q)
    dv = torch.empty_like(q)
    for b in range(q.shape[0]):
        qf, kf, vf, dof = q[b].float(), k[b].float(), v[b].float(), do[b].float()
        p = torch.exp(_scores(qf, kf, scale) - lse[b][..., None])
        dv[b] = torch.matmul(p.transpose(-1, -2), dof).to(q.dtype)
        ds = p * (torch.matmul(dof, vf.transpose(-1, -2)) - delta[b][..., None])
        dk[b] = (torch.matmul(ds.transpose(-1, -2), qf) * scale).to(q.dtype)
    return dk, dv


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    bh = s["B"] * s["H"]
    return {"bytes": 2 * 6 * bh * s["S"] * s["D"] + 8 * bh * s["S"],
            "flops": 4 * bh * s["S"] * s["S"] * s["D"]}  # 4 GEMMs over the causal half
