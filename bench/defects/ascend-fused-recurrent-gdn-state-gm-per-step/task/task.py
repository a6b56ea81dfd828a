"""Fused recurrent gated delta rule (Qwen3-Next linear-attention layers, FLA fused_recurrent_gated_delta_rule
as vLLM-Ascend runs it for decode / speculative tokens): per (sequence, value head) a [K, V] fp32 state h,
for each step t: h *= exp(g_t); u = beta_t * (v_t - k_t @ h); h += k_t^T u; o_t = scale * q_t @ h.
q, k are shared by HV // HK value heads (GVA). Outputs o [B, T, HV, V] (bf16) and the final state
[B, HV, K, V] (fp32)."""
import torch

META = {
    "name": "fused_recurrent_gated_delta_rule",
    "level": 3,
    "category": "attention",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 2e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"B": 2, "T": 3, "HK": 2, "HV": 4, "K": 16, "V": 16},
        "ragged": {"B": 3, "T": 5, "HK": 2, "HV": 4, "K": 32, "V": 48},
        "large": {"B": 32, "T": 16, "HK": 16, "HV": 32, "K": 128, "V": 128},
    },
    "baseline_notes": "Grid (V / BV, B * HV) sized to fill the vector cores; each program keeps its [K, BV] "
                      "state tile on chip for all T steps: one state load, one state store.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """q, k [B, T, HK, K] (l2-normalised), v [B, T, HV, V] in dtype; g (log decay, < 0) and beta in (0, 1)
    [B, T, HV] fp32; initial state h0 [B, HV, K, V] fp32."""
    s = META["sizes"][size]
    dt = getattr(torch, dtype or META["dtypes"][0])
    g = torch.Generator().manual_seed(seed)
    B, T, HK, HV, K, V = s["B"], s["T"], s["HK"], s["HV"], s["K"], s["V"]
    q = torch.nn.functional.normalize(torch.randn(B, T, HK, K, generator=g), dim=-1)
    k = torch.nn.functional.normalize(torch.randn(B, T, HK, K, generator=g), dim=-1)
    v = torch.randn(B, T, HV, V, generator=g)
    gate = -torch.nn.functional.softplus(torch.randn(B, T, HV, generator=g) - 2.0)
    beta = torch.rand(B, T, HV, generator=g)
    h0 = 0.1 * torch.randn(B, HV, K, V, generator=g)
    return (q.to(dt).to(device), k.to(dt).to(device), v.to(dt).to(device), gate.to(device), beta.to(device),
            h0.to(device))


def reference(q, k, v, g, beta, h0):
    B, T, HK, K = q.shape
    HV, V = v.shape[2], v.shape[3]
    rep = HV // HK
    scale = K ** -0.5
    qd = q.double().repeat_interleave(rep, dim=2)
    kd = k.double().repeat_interleave(rep, dim=2)
    vd, gd, bd = v.double(), g.double(), beta.double()
    h = h0.double().clone()
    o = torch.empty(B, T, HV, V, dtype=torch.float64, device=q.device)
    for t in range(T):
        h = h * gd[:, t, :, None, None].exp()
        kt = kd[:, t]
        u = bd[:, t, :, None] * (vd[:, t] - torch.einsum("bhk,bhkv->bhv", kt, h))
        h = h + kt[..., None] * u[:, :, None, :]
        o[:, t] = scale * torch.einsum("bhk,bhkv->bhv", qd[:, t], h)
    return o.to(q.dtype), h.float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    B, T, HK, HV, K, V = s["B"], s["T"], s["HK"], s["HV"], s["K"], s["V"]
    io = 2 * (2 * B * T * HK * K + 2 * B * T * HV * V) + 8 * B * T * HV
    state = 2 * 4 * B * HV * K * V
    return {"bytes": io + state, "flops": 8 * B * T * HV * K * V}
