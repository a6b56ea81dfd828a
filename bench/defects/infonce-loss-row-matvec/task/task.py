"""SimCLR NT-Xent (InfoNCE) loss per anchor over 2N L2-normalised projections: rows i and i + N are the two views of
one image; loss_i = logsumexp_{j != i}(z_i . z_j / tau) - z_i . z_pos(i) / tau, fp32 [2N]."""
import torch

META = {
    "name": "ntxent_loss",
    "level": 2,
    "category": "loss",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 2e-3, "rtol": 2e-3}},
    "sizes": {
        "small": {"N": 40, "D": 32},
        "ragged": {"N": 150, "D": 64},
        "large": {"N": 4096, "D": 128},
    },
    "baseline_notes": "Flash-style: one program per 64 anchors; the [64, D] anchor tile stays in registers and each "
                      "[64, D] tile of the other embeddings is multiplied in with tl.dot (bf16 in, fp32 out), "
                      "followed by an online log-sum-exp over the similarity tile (self pair masked) and the "
                      "positive picked by a select.",
    "deterministic": True,
}

TAU = 0.1


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """z [2N, D] (projection-head outputs of both augmented views, L2-normalised), temperature tau."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    base = torch.randn(s["N"], s["D"], generator=g)
    views = torch.cat([base + 0.6 * torch.randn(s["N"], s["D"], generator=g),
                       base + 0.6 * torch.randn(s["N"], s["D"], generator=g)])
    z = torch.nn.functional.normalize(views, dim=-1)
    return z.to(dt).to(device), TAU


def reference(z: torch.Tensor, tau: float) -> torch.Tensor:
    zd = z.double()
    n2 = zd.shape[0]
    sim = zd @ zd.T / tau
    sim.fill_diagonal_(float("-inf"))
    idx = torch.arange(n2, device=z.device)
    pos = (idx + n2 // 2) % n2
    return (torch.logsumexp(sim, dim=1) - sim[idx, pos]).float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    n2 = 2 * s["N"]
    return {"bytes": item * n2 * s["D"] + 4 * n2, "flops": 2 * n2 * n2 * s["D"] + 4 * n2 * n2}
