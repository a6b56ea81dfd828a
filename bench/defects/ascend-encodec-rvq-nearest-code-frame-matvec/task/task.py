"""Nearest-code search of one EnCodec residual vector quantizer level (EuclideanCodebook.quantize).

EnCodec (facebookresearch/encodec, quantization/core_vq.py) quantizes every latent frame x (dimension D = 128)
against a codebook embed [K = 1024, D] of each RVQ level:
    dist[n, k] = -(|x_n|^2 - 2 x_n . e_k + |e_k|^2),   codes[n] = argmax_k dist[n, k]
i.e. the index of the nearest code in Euclidean distance (|x_n|^2 does not change the argmax). The 24 kHz
model emits 75 frames per second; the large size is one level over a batch of 32 ten-second clips
(24,000 frames). Latents are drawn near codebook entries (as a trained encoder's are), so the nearest
code is well separated and the int64 codes compare exactly.
"""
import torch

META = {
    "name": "encodec_rvq_nearest_code",
    "level": 2,
    "category": "matmul",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"N": 40, "K": 128, "D": 64},
        "ragged": {"N": 37, "K": 300, "D": 72},
        "large": {"N": 24000, "K": 1024, "D": 128},
    },
    "baseline_notes": "40 programs (the 910B4's vector cores) loop over blocks of 64 frames; each block "
                      "walks the codebook in tiles of 64 codes, scores x @ e^T with tl.dot on the cube "
                      "unit, subtracts half the code norms on the vector unit and keeps a running "
                      "min / argmin per frame; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [N, D] latent frames, embed [K, D] codebook."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    embed = torch.randn(s["K"], s["D"], generator=g)
    pick = torch.randint(0, s["K"], (s["N"],), generator=g)
    x = embed[pick] + 0.1 * torch.randn(s["N"], s["D"], generator=g)
    return x.to(dt).to(device), embed.to(dt).to(device)


def reference(x: torch.Tensor, embed: torch.Tensor) -> torch.Tensor:
    xd, ed = x.double(), embed.double()
    dist = -(xd.pow(2).sum(1, keepdim=True) - 2 * xd @ ed.t() + ed.pow(2).sum(1)[None, :])
    return dist.max(dim=-1).indices


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 4 * s["N"] * s["D"] + 4 * s["K"] * s["D"] + 8 * s["N"],
            "flops": 2 * s["N"] * s["K"] * s["D"]}
