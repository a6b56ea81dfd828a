"""Blocked Shampoo preconditioner statistics (Distributed Shampoo, max_preconditioner_dim blocking): the gradient
of a weight is cut into B x B blocks, and each block keeps two Kronecker factors updated by an EMA,
L_b = beta2 * L_b + (1 - beta2) * G_b G_b^T and R_b = beta2 * R_b + (1 - beta2) * G_b^T G_b.
bf16 gradient, fp32 factors; returns the new (L, R) stacked over blocks in row-major block order."""
import torch

META = {
    "name": "shampoo_blocked_factor_update",
    "level": 2,
    "category": "gemm",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 1e-4, "rtol": 1e-5}},
    "sizes": {
        "small": {"M": 320, "N": 160, "B": 160},
        "ragged": {"M": 144, "N": 216, "B": 72},
        "large": {"M": 14336, "N": 4096, "B": 1024},
    },
    "baseline_notes": "Per factor side, one launch over (128 x 128 output tile, block) programs: bf16 tl.dot over "
                      "BLOCK_K=64 with an fp32 accumulator, then the EMA with the old factor tile in the epilogue; "
                      "num_warps=8, num_stages=3, no autotune.",
    "deterministic": True,
}

BETA2 = 0.99


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """grad [M, N] (bf16), left [nb, B, B] and right [nb, B, B] (fp32, symmetric, diagonally dominant: the
    factors of earlier steps), the block size B and beta2."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    M, N, B = s["M"], s["N"], s["B"]
    nb = (M // B) * (N // B)
    grad = torch.randn(M, N, generator=g)

    def factors() -> torch.Tensor:
        noise = torch.randn(nb, B, B, generator=g) * (B ** 0.5)
        f = (noise + noise.transpose(1, 2)) * 0.5
        f.diagonal(dim1=1, dim2=2).copy_(B * (0.5 + torch.rand(nb, B, generator=g)))
        return f

    left, right = factors(), factors()
    return grad.to(dt).to(device), left.to(device), right.to(device), B, BETA2


def reference(grad, left, right, block_size, beta2):
    M, N = grad.shape
    B = block_size
    g = grad.double().reshape(M // B, B, N // B, B).permute(0, 2, 1, 3).reshape(-1, B, B)
    new_left = beta2 * left.double() + (1.0 - beta2) * (g @ g.transpose(1, 2))
    new_right = beta2 * right.double() + (1.0 - beta2) * (g.transpose(1, 2) @ g)
    return new_left.float(), new_right.float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    M, N, B = s["M"], s["N"], s["B"]
    nb = (M // B) * (N // B)
    return {"bytes": 2 * M * N + 2 * 2 * 4 * nb * B * B, "flops": 2 * nb * (2 * B ** 3 + 3 * B * B)}
