"""GNN sum aggregation (PyG GINConv / torch_scatter scatter_add of x[src] into dst): out[i] = sum of x[col[e]] over the edges e into node i, with the edges sorted by destination (CSR rowptr given)."""
import torch

META = {
    "name": "gnn_sum_aggregate",
    "level": 1,
    "category": "gather",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"NODES": 40, "DEG": 6, "F": 48},
        "ragged": {"NODES": 3001, "DEG": 13, "F": 100},
        "large": {"NODES": 131072, "DEG": 32, "F": 128},
    },
    "baseline_notes": "Grid (node, 128-feature block): each program walks its CSR segment [rowptr[i], rowptr[i+1]) in "
                      "32-edge chunks, gathers the source rows, sums in registers and stores once; no atomics.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [NODES, F] features; edges sorted by destination: rowptr [NODES + 1], col [E] (source), dst [E] (destination),
    in-degrees uniform in [DEG / 2, 3 DEG / 2]."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    deg = torch.randint(s["DEG"] // 2, 3 * s["DEG"] // 2 + 1, (s["NODES"],), generator=g)
    rowptr = torch.zeros(s["NODES"] + 1, dtype=torch.int64)
    rowptr[1:] = torch.cumsum(deg, 0)
    dst = torch.repeat_interleave(torch.arange(s["NODES"]), deg)
    col = torch.randint(0, s["NODES"], (int(rowptr[-1]),), generator=g)
    x = torch.randn(s["NODES"], s["F"], generator=g).to(getattr(torch, dtype or META["dtypes"][0]))
    return x.to(device), rowptr.to(device), col.to(device), dst.to(device)


def reference(x: torch.Tensor, rowptr: torch.Tensor, col: torch.Tensor, dst: torch.Tensor) -> torch.Tensor:
    return torch.zeros_like(x).index_add_(0, dst, x[col])


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    e = s["NODES"] * s["DEG"]
    return {"bytes": 4 * s["NODES"] * s["F"] * 2 + 16 * e, "flops": e * s["F"]}
