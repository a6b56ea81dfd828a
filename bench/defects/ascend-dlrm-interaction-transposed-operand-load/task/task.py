"""DLRM dot interaction (TorchRec InteractionArch / MLPerf DLRM): stack the bottom-MLP output with the
pooled embeddings of the sparse features, T = [dense; sparse_1 .. sparse_F] ([B, F + 1, D]), take all
pairwise dot products Z = T T^T, keep the strictly lower triangle in torch.tril_indices(F + 1, F + 1, -1)
order and concatenate it after the dense features: out [B, D + (F + 1) F / 2]."""
import torch

META = {
    "name": "dlrm_dot_interaction",
    "level": 2,
    "category": "gemm",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 1e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"B": 37, "F": 5, "D": 32},
        "ragged": {"B": 203, "F": 13, "D": 64},
        "large": {"B": 16384, "F": 26, "D": 128},
    },
    "baseline_notes": "Grid of 20 programs (AI cube cores), each looping over its samples: the [F + 1, D] feature "
                      "tile (rows padded to a power of two) is loaded once from the dense and sparse tensors, Z = "
                      "tl.dot(x, tl.trans(x)) in fp32, the dense row and the lower triangle stored with one masked "
                      "scatter.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """dense [B, D] (ReLU bottom-MLP output) and sparse [B, F, D] (one pooled embedding per sparse feature)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    dense = torch.relu(torch.randn(s["B"], s["D"], generator=g) * 0.3)
    sparse = (torch.rand(s["B"], s["F"], s["D"], generator=g) * 2.0 - 1.0) * 0.3
    return dense.to(dt).to(device), sparse.to(dt).to(device)


def reference(dense: torch.Tensor, sparse: torch.Tensor) -> torch.Tensor:
    t = torch.cat([dense.unsqueeze(1), sparse], dim=1).double()
    z = torch.bmm(t, t.transpose(1, 2))
    n = t.shape[1]
    li, lj = torch.tril_indices(n, n, offset=-1, device=dense.device)
    return torch.cat([dense.double(), z[:, li, lj]], dim=1).to(dense.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["F"] + 1
    out_cols = s["D"] + n * (n - 1) // 2
    return {"bytes": 2 * (s["B"] * n * s["D"] + s["B"] * out_cols), "flops": 2 * s["B"] * n * n * s["D"]}
