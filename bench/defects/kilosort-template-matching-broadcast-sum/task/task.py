"""Template-matching scores of Kilosort 4's matching pursuit (template_matching.run_matching), first peel.

The whitened batch is projected on the nt-sample temporal PCs (conv1d with wPCA), giving Xp [C, P, T];
each template n has spatial components U [n, C, P] on those PCs. The match of template n at sample t is
    B[n, t]  = sum_{c, p} U[n, c, p] * Xp[c, p, t]
    nm[n]    = sum_{c, p} U[n, c, p]^2
    Cf[n, t] = relu(B[n, t])^2 / nm[n]
with Cf set to 0 in the first and last nt samples (the batch padding). Returns Cf fp32 [N, T].
"""
import torch

META = {
    "name": "template_match_scores",
    "level": 2,
    "category": "gemm",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 5e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"N": 16, "C": 8, "P": 6, "T": 300, "nt": 61},
        "ragged": {"N": 21, "C": 7, "P": 6, "T": 333, "nt": 61},
        "large": {"N": 512, "C": 384, "P": 6, "T": 60160, "nt": 61},
    },
    "baseline_notes": "Cf = relu(U @ Xp)^2 / nm as one GEMM over K = C*P: 64 templates x 64 samples per program, "
                      "BLOCK_K = 8, tl.dot (tf32) accumulating in fp32 while the same U tiles accumulate nm; "
                      "relu, square, divide and the padding mask in the epilogue. 8 warps, 3 stages, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """U [N, C, P] (templates on ~12 neighbouring channels of the shank), Xp [C, P, T] (projections of a
    whitened batch, unit noise, with template-shaped spikes), nt (int, padding width)."""
    s = META["sizes"][size]
    N, C, P, T, nt = s["N"], s["C"], s["P"], s["T"], s["nt"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    chan = torch.arange(C, dtype=torch.float32)
    centre = torch.rand(N, generator=g) * C
    spatial = torch.exp(-(chan[None, :] - centre[:, None]) ** 2 / (2 * 4.0 ** 2))
    pcs = torch.randn(N, 1, P, generator=g) + 0.3 * torch.randn(N, C, P, generator=g)
    amp = 4.0 + 8.0 * torch.rand(N, 1, 1, generator=g)
    U = amp * spatial[:, :, None] * pcs / pcs.norm(dim=2, keepdim=True)
    Xp = torch.randn(C, P, T, generator=g)
    n_spikes = max(3, N * T // 3000)
    who = torch.randint(0, N, (n_spikes,), generator=g)
    when = torch.randint(nt, T - nt, (n_spikes,), generator=g)
    scale = 0.5 + torch.rand(n_spikes, generator=g)
    Xp.index_add_(2, when, (scale[:, None, None] * U[who]).permute(1, 2, 0))
    return U.to(dt).to(device), Xp.to(dt).to(device), nt


def reference(U: torch.Tensor, Xp: torch.Tensor, nt: int) -> torch.Tensor:
    N = U.shape[0]
    C, P, T = Xp.shape
    u = U.double().reshape(N, C * P)
    B = u @ Xp.double().reshape(C * P, T)
    Cf = torch.relu(B) ** 2 / (u * u).sum(1, keepdim=True)
    Cf[:, :nt] = 0
    Cf[:, T - nt:] = 0
    return Cf.to(U.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    N, K, T = s["N"], s["C"] * s["P"], s["T"]
    return {"bytes": 4 * (N * K + K * T + N * T), "flops": 2 * N * K * T}
