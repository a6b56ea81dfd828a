"""EnCodec residual vector quantizer decode (ResidualVectorQuantization.decode): the quantized latent is the
sum over the n_q codebooks of codebook[q][codes[:, q, t]], returned channel-first [B, D, T] for the
SEANet decoder."""
import torch

META = {
    "name": "encodec_rvq_decode",
    "level": 2,
    "category": "gather",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"B": 2, "NQ": 4, "BINS": 64, "D": 32, "T": 50},
        "ragged": {"B": 3, "NQ": 5, "BINS": 100, "D": 48, "T": 37},
        "large": {"B": 64, "NQ": 32, "BINS": 1024, "D": 128, "T": 2250},
    },
    "baseline_notes": "2-D grid (block of 64 frames, batch item); each program loops over the n_q codebooks, "
                      "gathering the 64 selected codebook rows (next_pow2(D) wide) into an fp32 [64, D] register "
                      "accumulator, then stores it once to the channel-first output; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """codes [B, n_q, T] int64 (one code per codebook and frame) and codebooks [n_q, bins, D] (k-means
    centroids of successively smaller residuals)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    codes = torch.randint(0, s["BINS"], (s["B"], s["NQ"], s["T"]), generator=g, dtype=torch.int64)
    scale = 0.8 ** torch.arange(s["NQ"], dtype=torch.float32)
    codebooks = torch.randn(s["NQ"], s["BINS"], s["D"], generator=g) * scale[:, None, None]
    return codes.to(device), codebooks.to(dt).to(device)


def reference(codes: torch.Tensor, codebooks: torch.Tensor) -> torch.Tensor:
    n_q = codebooks.shape[0]
    quantized = sum(codebooks[q].double()[codes[:, q]] for q in range(n_q))  # [B, T, D]
    return quantized.transpose(1, 2).contiguous().to(codebooks.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    frames = s["B"] * s["T"]
    return {"bytes": 8 * frames * s["NQ"] + 4 * s["NQ"] * s["BINS"] * s["D"] + 4 * frames * s["D"],
            "flops": frames * s["NQ"] * s["D"]}
