"""Self-adaptive adjacency of Graph WaveNet (Wu et al., IJCAI 2019): A_adp = SoftMax(ReLU(E1 @ E2), dim=1).

Two learned node-embedding tables, nodevec1 E1 [N, D] and nodevec2 E2 [D, N] (D = 10 in the
reference implementation), give every sensor pair a score relu(E1[i] . E2[:, j]); each row is
softmax-normalised over all N sensors. The result is the dense [N, N] transition matrix used as the
third support of every graph-convolution layer, recomputed at each forward pass.
Returns A_adp [N, N] fp32.
"""
import torch

META = {
    "name": "adaptive_adjacency",
    "level": 2,
    "category": "softmax",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 40, "D": 10},
        "ragged": {"N": 77, "D": 10},
        "large": {"N": 8600, "D": 10},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over blocks of 8 sensors (rows); per block "
                      "two sweeps over 512-column tiles: the scores are built on the vector unit as D rank-1 "
                      "updates (an [8] column of E1 times a contiguous [512] row of E2), an online row max "
                      "and exp-sum in the first sweep, exp(s - max) / sum stored in the second. No tl.dot "
                      "(D = 10), no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """nodevec1 [N, D] and nodevec2 [D, N], scaled like trained embeddings."""
    s = META["sizes"][size]
    N, D = s["N"], s["D"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    e1 = 0.6 * torch.randn(N, D, generator=g)
    e2 = 0.6 * torch.randn(D, N, generator=g)
    return e1.to(dt).to(device), e2.to(dt).to(device)


def reference(nodevec1: torch.Tensor, nodevec2: torch.Tensor) -> torch.Tensor:
    scores = torch.relu(nodevec1.double() @ nodevec2.double())
    return torch.softmax(scores, dim=1).to(nodevec1.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    N, D = s["N"], s["D"]
    return {"bytes": 4 * N * N + 8 * N * D, "flops": N * N * (2 * D + 6)}
