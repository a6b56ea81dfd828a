"""Int8 quantised dense retrieval scoring (BGE / bge-m3 1024-d embeddings, per-vector symmetric int8).

Queries and documents are stored as int8 codes with one fp32 scale per vector (x ~= code * scale).
The inner-product score of every query against every document of the shard is
scores[q, n] = q_scale[q] * d_scale[n] * sum_k q_codes[q, k] * d_codes[n, k], in fp32.
"""
import torch

META = {
    "name": "int8_corpus_scoring",
    "level": 2,
    "category": "gemm",
    "dtypes": ["int8"],
    "tolerance": {"int8": {"atol": 1e-6, "rtol": 1e-5}},
    "sizes": {
        "small": {"Q": 5, "N": 300, "D": 128},
        "ragged": {"Q": 7, "N": 777, "D": 192},
        "large": {"Q": 32, "N": 1048576, "D": 1024},
    },
    "baseline_notes": "Persistent grid of 20 programs (the AI cores) looping over 128-document tiles; each tile "
                      "holds all queries (<= 32) as a [32, 256] int8 block and multiplies it with the document "
                      "tile by tl.dot(q, tl.trans(d)) into an int32 accumulator over D in 256-wide steps, then "
                      "applies both scales and stores the [32, 128] fp32 block.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """q_codes [Q, D] int8, q_scale [Q] fp32, d_codes [N, D] int8, d_scale [N] fp32."""
    s = META["sizes"][size]
    Q, N, D = s["Q"], s["N"], s["D"]
    g = torch.Generator().manual_seed(seed)
    q_codes = torch.randint(-127, 128, (Q, D), generator=g, dtype=torch.int8)
    d_codes = torch.randint(-127, 128, (N, D), generator=g, dtype=torch.int8)
    # unit-norm vectors whose absmax is ~3.5 sigma of 1/sqrt(D): scale = absmax / 127
    q_scale = (torch.rand(Q, generator=g) * 0.5 + 0.75) * (3.5 / D ** 0.5 / 127)
    d_scale = (torch.rand(N, generator=g) * 0.5 + 0.75) * (3.5 / D ** 0.5 / 127)
    return (q_codes.to(device), q_scale.float().to(device), d_codes.to(device), d_scale.float().to(device))


def reference(q_codes: torch.Tensor, q_scale: torch.Tensor, d_codes: torch.Tensor,
              d_scale: torch.Tensor) -> torch.Tensor:
    dots = q_codes.double() @ d_codes.double().t()
    dots = dots.float()  # exact: |dot| <= 127 * 127 * 1024 < 2**24
    return dots * q_scale[:, None] * d_scale[None, :]


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    Q, N, D = s["Q"], s["N"], s["D"]
    return {"bytes": N * D + Q * D + 4 * (Q + N) + 4 * Q * N, "flops": 2 * Q * N * D}
