"""RetNet multi-scale retention, chunkwise forward (flash-linear-attention chunk_retention): per head h the decay
gamma_h = 1 - 2^(-5 - h), o_t = scale * sum_{s <= t} gamma^(t - s) (q_t . k_s) v_s with scale = K^-0.5.
q, k [B, H, T, K], v [B, H, T, V] (head-first); o [B, H, T, V] in v's dtype."""
import torch

META = {
    "name": "chunk_retention_fwd",
    "level": 3,
    "category": "attention",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 6e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"B": 1, "H": 2, "T": 150, "K": 32, "V": 32},
        "ragged": {"B": 1, "H": 3, "T": 97, "K": 40, "V": 24},
        "large": {"B": 8, "H": 8, "T": 2048, "K": 256, "V": 512},
    },
    "baseline_notes": "Two kernels with 64-token chunks: the chunk states h_c = sum_{s < 64c} gamma^(64c - 1 - s) "
                      "k_s v_s^T (grid (K / 64, V / 64, B * H), one tl.dot per chunk, stored bf16), then the output "
                      "with grid (V / 64, T / 64, B * H): (q h_c) scaled by gamma^(i + 1) plus the causal-decay-masked "
                      "(q k^T) v of the chunk, all three products tl.dot on 64 x 64 tiles; 8 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    q = torch.randn(s["B"], s["H"], s["T"], s["K"], generator=g).to(dt)
    k = torch.randn(s["B"], s["H"], s["T"], s["K"], generator=g).to(dt)
    v = (0.05 * torch.randn(s["B"], s["H"], s["T"], s["V"], generator=g)).to(dt)
    return q.to(device), k.to(device), v.to(device)


def reference(q, k, v):
    B, H, T, K = q.shape
    scale = K ** -0.5
    gamma = 1.0 - 2.0 ** (-5.0 - torch.arange(H, dtype=torch.float64, device=q.device))
    t = torch.arange(T, device=q.device)
    diff = (t[:, None] - t[None, :]).to(torch.float64)
    decay = torch.where(diff >= 0, gamma[:, None, None] ** diff.clamp(min=0), 0.0)   # [H, T, T]
    out = torch.empty(v.shape, dtype=torch.float64, device=v.device)
    for b in range(B):
        s = torch.matmul(q[b].double(), k[b].double().transpose(-1, -2)) * scale * decay
        out[b] = torch.matmul(s, v[b].double())
    return out.to(v.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    B, H, T, K, V = s["B"], s["H"], s["T"], s["K"], s["V"]
    BT = 64
    nt = -(-T // BT)
    elem = 2
    states = B * H * nt * K * V * elem
    return {"bytes": elem * B * H * T * (3 * K + 3 * V) + 2 * states,
            "flops": 2 * B * H * nt * K * V * BT * 2 + 2 * B * H * T * BT * (K + V)}
