"""ComplEx 1-vs-all tail scores (facebookresearch/kbc ComplEx.forward, DGL-KE ComplEx against all tails).

kbc stores every embedding as one row of 2 * rank values, real part first, imaginary part second.
For each query (head, relation) the score of every candidate tail t is
    Re(<h, r, conj(t)>) = (h_re r_re - h_im r_im) . t_re + (h_re r_im + h_im r_re) . t_im,
i.e. q @ E.T with q = [h_re r_re - h_im r_im | h_re r_im + h_im r_re] (q rounded to the table's fp16).
"""
import torch

META = {
    "name": "complex_1vsall_scores",
    "level": 2,
    "category": "gemm",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 2e-3, "rtol": 1e-2}},
    "sizes": {
        "small": {"B": 6, "N": 40, "R": 16},
        "ragged": {"B": 7, "N": 77, "R": 24},
        "large": {"B": 1024, "N": 14541, "R": 1000},
    },
    "baseline_notes": "Two launches: a vector kernel forms the complex query rows q = h*r in fp16 (40 programs "
                      "looping over queries), then a persistent tl.dot GEMM q @ E.T with 128x128 output tiles, "
                      "BLOCK_K = 128, fp32 accumulator, 20 programs looping over the output tiles.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """lhs [B, 2R] (gathered head rows), rel [B, 2R] (gathered relation rows), ent [N, 2R] (all tails)."""
    s = META["sizes"][size]
    B, N, R = s["B"], s["N"], s["R"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    lhs = torch.randn(B, 2 * R, generator=g) * 0.5
    rel = torch.randn(B, 2 * R, generator=g) * 0.5
    ent = torch.randn(N, 2 * R, generator=g) * 0.5
    return lhs.to(dt).to(device), rel.to(dt).to(device), ent.to(dt).to(device)


def reference(lhs: torch.Tensor, rel: torch.Tensor, ent: torch.Tensor) -> torch.Tensor:
    R = lhs.shape[1] // 2
    l, r = lhs.float(), rel.float()
    q_re = l[:, :R] * r[:, :R] - l[:, R:] * r[:, R:]
    q_im = l[:, :R] * r[:, R:] + l[:, R:] * r[:, :R]
    q = torch.cat([q_re, q_im], dim=1).to(lhs.dtype).float()
    return q @ ent.float().t()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    B, N, K = s["B"], s["N"], 2 * s["R"]
    return {"bytes": 2 * (2 * B * K + N * K) + 4 * B * N, "flops": 2 * B * N * K}
