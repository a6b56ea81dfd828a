"""DGCNN knn's pairwise score (get_graph_feature -> knn): -||x_i - x_j||^2 = 2 x_i . x_j - |x_i|^2 - |x_j|^2 for
every pair of points of each cloud, from channels-first point features [B, C, N]; topk(k=20) follows."""
import torch

META = {
    "name": "dgcnn_pairwise_distance",
    "level": 2,
    "category": "gemm",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 2e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 2, "C": 64, "N": 100},
        "ragged": {"B": 3, "C": 64, "N": 150},
        "large": {"B": 32, "C": 64, "N": 1024},
    },
    "baseline_notes": "Program per (64 x 64 point pairs, cloud): [64, 32] and [32, 64] feature tiles loaded from the "
                      "channels-first layout, inner products by tl.dot (bf16 in, fp32 accumulate), squared norms "
                      "from the same tiles, -xx_i + 2 inner - xx_j in the epilogue; fp32 output.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [B, C, N]: EdgeConv input features (the output of the previous EdgeConv block, 64 channels), bf16 under
    autocast."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.relu(torch.randn(s["B"], s["C"], s["N"], generator=g))
    return (x.to(dt).to(device),)


def reference(x: torch.Tensor) -> torch.Tensor:
    v = x.double()
    inner = -2 * torch.matmul(v.transpose(2, 1), v)
    xx = torch.sum(v ** 2, dim=1, keepdim=True)
    return (-xx - inner - xx.transpose(2, 1)).float()   # [B, N, N]


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": item * s["B"] * s["C"] * s["N"] + 4 * s["B"] * s["N"] * s["N"],
            "flops": 2 * s["B"] * s["N"] * s["N"] * s["C"]}
