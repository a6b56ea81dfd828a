"""Edge softmax of graph attention (torch_geometric.utils.softmax(src, index, ptr)): softmax of each node's incoming edges, per head."""
import torch

META = {
    "name": "edge_softmax",
    "level": 2,
    "category": "softmax",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 50, "DEG": 6, "H": 4},
        "ragged": {"N": 3001, "DEG": 13, "H": 3},
        "large": {"N": 131072, "DEG": 32, "H": 8},
    },
    "baseline_notes": "One program per destination node over its CSR segment [ptr[i], ptr[i+1]): an online max / "
                      "sum-of-exp loop over [32, H] edge tiles, then a normalise loop; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """src [E, H] attention logits, index [E] destination of each edge (sorted, int64), ptr [N + 1] CSR offsets, N."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    E = s["N"] * s["DEG"]
    index = torch.sort(torch.randint(0, s["N"], (E,), generator=g)).values
    ptr = torch.searchsorted(index, torch.arange(s["N"] + 1))
    src = torch.randn(E, s["H"], generator=g) * 2.0
    return src.to(getattr(torch, dtype or META["dtypes"][0])).to(device), index.to(device), ptr.to(device), s["N"]


def reference(src: torch.Tensor, index: torch.Tensor, ptr: torch.Tensor, num_nodes: int) -> torch.Tensor:
    idx = index[:, None].expand_as(src)
    node_max = torch.full((num_nodes, src.shape[1]), float("-inf"), dtype=src.dtype, device=src.device)
    node_max = node_max.scatter_reduce(0, idx, src, reduce="amax", include_self=True)
    out = (src - node_max.index_select(0, index)).exp()
    node_sum = torch.zeros_like(node_max).scatter_add(0, idx, out) + 1e-16
    return out / node_sum.index_select(0, index)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    E = s["N"] * s["DEG"]
    return {"bytes": 8 * E * s["H"] + 8 * (s["N"] + 1), "flops": 4 * E * s["H"]}
