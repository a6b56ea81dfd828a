"""Mamba-2 SSD chunk state (mamba_ssm _chunk_state_fwd): the state each chunk contributes on its own,
states[b, c, h] = sum_l x[b, c*cs+l, h, :]^T (B[b, c*cs+l, g(h), :] * exp(dA_cs[b, h, c, -1] - dA_cs[b, h, c, l])
* dt[b, h, c, l]), a [headdim, d_state] matrix per (batch, chunk, head). x/B bf16, dt/dA_cumsum fp32,
states fp32 [B, nchunks, H, P, N]."""
import torch

META = {
    "name": "ssd_chunk_state",
    "level": 2,
    "category": "ssm",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 3e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"B": 1, "L": 64, "H": 4, "P": 16, "N": 16, "G": 1, "CS": 32},
        "ragged": {"B": 2, "L": 96, "H": 6, "P": 16, "N": 32, "G": 2, "CS": 32},
        "large": {"B": 1, "L": 65536, "H": 32, "P": 64, "N": 128, "G": 1, "CS": 256},
    },
    "baseline_notes": "Grid (P x N tiles, batch * chunk, head) as in mamba_ssm: each program reduces one chunk's "
                      "256 positions with tl.dot(x^T tile, decayed B tile) in 64-wide K steps and stores its fp32 "
                      "state tile.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [B, L, H, P], Bm [B, L, G, N] (input dtype), dt and dA_cumsum [B, H, L // CS, CS] fp32 (as
    _chunk_cumsum_fwd leaves them: softplus'd dt and the in-chunk cumsum of dt * A)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt_ = getattr(torch, dtype or META["dtypes"][0])
    B, L, H, P, N, G, CS = s["B"], s["L"], s["H"], s["P"], s["N"], s["G"], s["CS"]
    nc = L // CS
    x = torch.randn(B, L, H, P, generator=g)
    Bm = torch.randn(B, L, G, N, generator=g)
    dt = torch.nn.functional.softplus(torch.randn(B, H, nc, CS, generator=g) - 4.0)
    A = -torch.exp(torch.rand(H, generator=g) * 2.0)
    dA_cumsum = torch.cumsum(dt * A[None, :, None, None], dim=-1)
    return x.to(dt_).to(device), Bm.to(dt_).to(device), dt.to(device), dA_cumsum.to(device)


def reference(x, Bm, dt, dA_cumsum):
    B, L, H, P = x.shape
    G = Bm.shape[2]
    nc, cs = dt.shape[2], dt.shape[3]
    xf = x.float().reshape(B, nc, cs, H, P)
    bf = Bm.float().reshape(B, nc, cs, G, -1).repeat_interleave(H // G, dim=3)       # [B, nc, cs, H, N]
    decay = torch.exp(dA_cumsum[..., -1:] - dA_cumsum) * dt                           # [B, H, nc, cs]
    w = decay.permute(0, 2, 3, 1)                                                     # [B, nc, cs, H]
    return torch.einsum("bclhp,bclhn->bchpn", xf * w[..., None], bf)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    B, L, H, P, N, G, CS = s["B"], s["L"], s["H"], s["P"], s["N"], s["G"], s["CS"]
    nc = L // CS
    return {"bytes": 2 * B * L * (H * P + G * N) + 8 * B * H * L + 4 * B * nc * H * P * N,
            "flops": 2 * B * L * H * P * N}
