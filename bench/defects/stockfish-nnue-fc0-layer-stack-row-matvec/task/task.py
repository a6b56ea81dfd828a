"""First affine layer (fc_0) of Stockfish's NNUE layer stacks, batched over positions.

After the feature transformer, each position is a vector of L1 uint8 values (the pairwise clipped
products clamp(a, 0, 254) * clamp(b, 0, 254) / 512 of both perspectives' accumulators, 0..126, mostly
zero). The net has 8 layer stacks; a position uses stack (piece_count - 1) / 4. fc_0 of that stack is an
int8 affine layer with int32 biases and 16 outputs (15 go on through the squared and plain clipped
ReLUs, the 16th is the direct "forward" term of the eval):
    out[b, j] = bias[s, j] + sum_k W[s, j, k] * x[b, k]        s = stack[b], int32 arithmetic
(Stockfish's AffineTransformSparseInput<L1, 16>; weights stored [stack][output][input]). The result is
exact int32, so any summation order matches.
"""
import torch

META = {
    "name": "nnue_layer_stack_fc0",
    "level": 2,
    "category": "gemm",
    "dtypes": ["int32"],
    "tolerance": {"int32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"B": 40, "L1": 256},
        "ragged": {"B": 37, "L1": 200},
        "large": {"B": 16384, "L1": 3072},
    },
    "baseline_notes": "Grid cdiv(B, 64): each program multiplies a [64, L1] uint8 block of positions (as int8) "
                      "by all 8 stacks' weights [L1, 128] with an int8 tl.dot into an int32 [64, 128] "
                      "accumulator (BLOCK_K 128), adds the biases and stores each row's 16 outputs of its own "
                      "stack with a mask. 4 warps, default stages, no autotune.",
    "deterministic": True,
}

STACKS = 8
OUTPUTS = 16


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x uint8 [B, L1] (transformed features), stack int32 [B], W int8 [8, 16, L1], bias int32 [8, 16]."""
    s = META["sizes"][size]
    B, L1 = s["B"], s["L1"]
    g = torch.Generator().manual_seed(seed)
    half = L1 // 2
    acc = (torch.randn(B, 2, L1, generator=g) * 150 + 20).round()
    a, b = acc[..., :half].clamp(0, 254), acc[..., half:2 * half].clamp(0, 254)
    x = torch.zeros(B, L1)
    x[:, :2 * half] = torch.floor(a * b / 512).reshape(B, 2 * half)
    pieces = torch.randint(2, 33, (B,), generator=g)
    stack = ((pieces - 1) // 4).to(torch.int32)
    w = (torch.randn(STACKS, OUTPUTS, L1, generator=g) * 24).round().clamp(-127, 127).to(torch.int8)
    bias = (torch.randn(STACKS, OUTPUTS, generator=g) * 3000).round().to(torch.int32)
    return x.to(torch.uint8).to(device), stack.to(device), w.to(device), bias.to(device)


def reference(x, stack, w, bias) -> torch.Tensor:
    """One fp64 matmul per stack over its positions (exact: every partial sum is far below 2**53)."""
    out = torch.empty(x.shape[0], OUTPUTS, dtype=torch.int32, device=x.device)
    xd = x.to(torch.float64)
    for s in range(STACKS):
        rows = (stack == s).nonzero().flatten()
        y = xd[rows] @ w[s].to(torch.float64).t() + bias[s].to(torch.float64)
        out[rows] = y.round().to(torch.int32)
    return out


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    B, L1 = s["B"], s["L1"]
    return {"bytes": B * L1 + STACKS * OUTPUTS * L1 + 8 * B + 4 * B * OUTPUTS, "flops": 2 * B * L1 * OUTPUTS}
