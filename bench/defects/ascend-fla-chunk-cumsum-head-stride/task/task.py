"""Chunk-local cumulative sum of per-head gates g [B, T, H] over chunks of 64 time steps, as in
flash-linear-attention's chunk_local_cumsum (GLA, Gated DeltaNet; used by vLLM for Qwen3-Next).
A local task for the head-strided read case."""
import torch

META = {
    "name": "chunk_local_cumsum",
    "level": 2,
    "category": "scan",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-5}},
    "sizes": {
        "small": {"B": 2, "T": 128, "H": 4},
        "ragged": {"B": 3, "T": 1000, "H": 12},
        "large": {"B": 32, "T": 8192, "H": 32},
    },
    "chunk": 64,
    "baseline_notes": "2-D grid (chunk, sequence): each program loads the [64, H] block of all heads "
                      "(rows of H contiguous gates), tl.cumsum along the time axis, one store.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Log-space gates g [B, T, H] (negative, as logsigmoid outputs are)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    x = torch.nn.functional.logsigmoid(torch.randn(s["B"], s["T"], s["H"], generator=g))
    return (x.to(device=device, dtype=getattr(torch, dtype or META["dtypes"][0])),)


def reference(g: torch.Tensor) -> torch.Tensor:
    B, T, H = g.shape
    C = META["chunk"]
    pad = (-T) % C
    x = torch.nn.functional.pad(g.double(), (0, 0, 0, pad)).view(B, -1, C, H)
    return x.cumsum(2).view(B, -1, H)[:, :T].to(g.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 2 * 4 * s["B"] * s["T"] * s["H"], "flops": s["B"] * s["T"] * s["H"]}
