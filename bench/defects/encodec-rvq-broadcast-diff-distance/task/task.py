"""EnCodec residual vector quantizer, encode path (ResidualVectorQuantization.encode with Euclidean
codebooks): for each of the Q codebooks in turn, every frame's residual picks its nearest code and the
code is subtracted from the residual. Input the encoder latent [B, D, T]; output codes [Q, B, T] int64."""
import torch

META = {
    "name": "encodec_rvq_encode",
    "level": 2,
    "category": "fused",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"B": 2, "D": 32, "T": 40, "Q": 3, "K": 64},
        "ragged": {"B": 3, "D": 128, "T": 301, "Q": 4, "K": 320},
        "large": {"B": 32, "D": 128, "T": 750, "Q": 8, "K": 1024},
    },
    "baseline_notes": "Grid (64-frame blocks, batch): the block's residual [64, D] stays in registers across the "
                      "Q stages; each stage walks the codebook in 64-code blocks, distance = |c|^2 - 2 r.c with "
                      "tl.dot (tf32), running min/argmin, then gathers the chosen codes and subtracts them; 4 warps.",
    "deterministic": True,
}

STAGE_DECAY = 0.6  # each codebook's scale relative to the previous one, as in a trained RVQ


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """latent [B, D, T] (a sum of one code per codebook plus a little noise) and codebooks [Q, K, D]
    whose scales decay by STAGE_DECAY per stage, so each stage's nearest code is well separated."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    B, D, T, Q, K = s["B"], s["D"], s["T"], s["Q"], s["K"]
    scales = STAGE_DECAY ** torch.arange(Q, dtype=torch.float32)
    codebooks = torch.randn(Q, K, D, generator=g) * scales[:, None, None]
    picks = torch.randint(0, K, (Q, B, T), generator=g)
    latent = sum(codebooks[q][picks[q]] for q in range(Q))
    latent = latent + 0.05 * STAGE_DECAY ** Q * torch.randn(B, T, D, generator=g)
    return latent.permute(0, 2, 1).contiguous().to(device=device, dtype=dt), codebooks.to(device=device, dtype=dt)


def reference(latent: torch.Tensor, codebooks: torch.Tensor) -> torch.Tensor:
    residual = latent.double().permute(0, 2, 1)
    codes = []
    for embed in codebooks.double():
        dist = (residual * residual).sum(-1, keepdim=True) - 2 * residual @ embed.t() + (embed * embed).sum(-1)
        idx = dist.argmin(dim=-1)
        codes.append(idx)
        residual = residual - embed[idx]
    return torch.stack(codes)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    B, D, T, Q, K = s["B"], s["D"], s["T"], s["Q"], s["K"]
    return {"bytes": 4 * B * D * T + 4 * Q * K * D + 8 * Q * B * T, "flops": 2 * B * T * Q * K * D}
