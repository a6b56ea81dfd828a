"""Mamba-2 SSD chunked C B^T (mamba_ssm _bmm_chunk_fwd): for each batch, chunk and group, out[i, j] = sum_n C[i, n] * B[j, n] over the chunk's positions, fp32 result."""
import torch

META = {
    "name": "ssd_bmm_chunk",
    "level": 2,
    "category": "gemm",
    "dtypes": ["bfloat16", "float16"],
    "tolerance": {"bfloat16": {"atol": 5e-2, "rtol": 2e-2}, "float16": {"atol": 1e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"BATCH": 2, "L": 48, "G": 2, "N": 32, "CS": 16},
        "ragged": {"BATCH": 2, "L": 1000, "G": 3, "N": 64, "CS": 128},
        "large": {"BATCH": 8, "L": 8192, "G": 8, "N": 128, "CS": 256},
    },
    "baseline_notes": "3-D grid (64 x 64 output tile, chunk, batch * group): bf16 tl.dot over 32-wide dstate steps "
                      "(tl.static_range), fp32 accumulator; positions past the sequence end masked; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """C and B [BATCH, L, G, N] (the SSM's output and input projections), chunk size CS."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    shape = (s["BATCH"], s["L"], s["G"], s["N"])
    C = torch.randn(shape, generator=g) / s["N"] ** 0.25
    B = torch.randn(shape, generator=g) / s["N"] ** 0.25
    return C.to(dt).to(device), B.to(dt).to(device), s["CS"]


def reference(C: torch.Tensor, B: torch.Tensor, chunk_size: int) -> torch.Tensor:
    batch, L, G, N = C.shape
    nchunks = -(-L // chunk_size)
    pad = nchunks * chunk_size - L
    Cp = torch.nn.functional.pad(C.float(), (0, 0, 0, 0, 0, pad)).view(batch, nchunks, chunk_size, G, N)
    Bp = torch.nn.functional.pad(B.float(), (0, 0, 0, 0, 0, pad)).view(batch, nchunks, chunk_size, G, N)
    return torch.einsum("bcign,bcjgn->bcgij", Cp, Bp)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    nchunks = -(-s["L"] // s["CS"])
    it = getattr(torch, dtype or META["dtypes"][0]).itemsize
    out = s["BATCH"] * nchunks * s["G"] * s["CS"] * s["CS"]
    return {"bytes": 2 * s["BATCH"] * s["L"] * s["G"] * s["N"] * it + 4 * out, "flops": 2 * out * s["N"]}
