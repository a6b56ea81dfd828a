"""RWKV-6 (Finch) WKV recurrence with a carried state (RWKV-LM wkv6 kernel, fla fused_recurrent_rwkv6).

Per batch b and head h, with a state S[K, V] started from h0:
    o_t[v] = sum_k r_t[k] * (S[k, v] + u[k] * k_t[k] * v_t[v])
    S[k, v] = S[k, v] * exp(w_t[k]) + k_t[k] * v_t[v]
where w_t = -exp(decay pre-activation) is the data-dependent log decay; returns o and the final state.
"""
import torch

META = {
    "name": "rwkv6_wkv_recurrence",
    "level": 2,
    "category": "sequence",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 2e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"B": 1, "T": 24, "H": 2, "K": 64, "V": 64},
        "ragged": {"B": 2, "T": 29, "H": 3, "K": 64, "V": 64},
        "large": {"B": 8, "T": 4096, "H": 64, "K": 64, "V": 64},
    },
    "baseline_notes": "Programs over (32-wide slice of V, batch*head), the [K, 32] fp32 state slice in registers "
                      "across the time loop, one r/k/w row and v slice loaded per step, output row stored per step, "
                      "final state stored once; 2 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """r, k, v [B, T, H, K|V] (dtype); w [B, T, H, K] fp32 log decay; u [H, K] fp32 bonus; h0 [B, H, K, V] fp32."""
    s = META["sizes"][size]
    B, T, H, K, V = s["B"], s["T"], s["H"], s["K"], s["V"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    r = torch.randn(B, T, H, K, generator=g) * 0.5
    k = torch.randn(B, T, H, K, generator=g) * 0.5
    v = torch.randn(B, T, H, V, generator=g) * 0.5
    # decay = exp(-exp(x)) between ~0.19 and ~0.9975, as the RWKV-6 time_decay init spreads it over channels
    w = -torch.exp(torch.rand(B, T, H, K, generator=g) * 6.5 - 6.0)
    u = torch.randn(H, K, generator=g) * 0.5
    h0 = torch.randn(B, H, K, V, generator=g) * 0.5
    return (r.to(dt).to(device), k.to(dt).to(device), v.to(dt).to(device),
            w.float().to(device), u.float().to(device), h0.float().to(device))


def reference(r, k, v, w, u, h0) -> tuple:
    state = h0.float().clone()
    outs = []
    for t in range(r.shape[1]):
        kv = k[:, t].float()[..., :, None] * v[:, t].float()[..., None, :]
        outs.append(torch.einsum("bhk,bhkv->bhv", r[:, t].float(), state + u[None, :, :, None] * kv))
        state = state * torch.exp(w[:, t])[..., None] + kv
    return torch.stack(outs, dim=1).to(r.dtype), state


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    B, T, H, K, V = s["B"], s["T"], s["H"], s["K"], s["V"]
    return {"bytes": B * T * H * (2 * 2 * K + 4 * K + 2 * V + 2 * V) + 4 * H * K + 2 * 4 * B * H * K * V,
            "flops": 6 * B * T * H * K * V}
