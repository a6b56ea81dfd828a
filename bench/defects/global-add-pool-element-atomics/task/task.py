"""Graph readout by sum (PyG global_add_pool / torch_scatter segment_csr): out[g] = sum of x over the nodes of graph g, the nodes of a batch stored graph after graph (batch sorted, ptr its CSR offsets)."""
import torch

META = {
    "name": "global_add_pool",
    "level": 1,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"G": 5, "NODES": 20, "F": 48},
        "ragged": {"G": 97, "NODES": 300, "F": 100},
        "large": {"G": 2048, "NODES": 1000, "F": 128},
    },
    "baseline_notes": "Grid (graph, 128-feature block): each program sums its graph's node rows between ptr[g] and "
                      "ptr[g + 1] in [64, 128] tiles, the running sum in registers, one store; no atomics.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [N, F] node features, batch [N] int64 (sorted graph id per node) and ptr [G + 1] int64, as a PyG Batch carries;
    graph sizes vary around NODES."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    sizes = torch.randint(s["NODES"] // 2, 3 * s["NODES"] // 2 + 1, (s["G"],), generator=g)
    ptr = torch.zeros(s["G"] + 1, dtype=torch.int64)
    ptr[1:] = torch.cumsum(sizes, 0)
    batch = torch.repeat_interleave(torch.arange(s["G"]), sizes)
    x = torch.randn(int(ptr[-1]), s["F"], generator=g).to(getattr(torch, dtype or META["dtypes"][0]))
    return x.to(device), batch.to(device), ptr.to(device)


def reference(x: torch.Tensor, batch: torch.Tensor, ptr: torch.Tensor) -> torch.Tensor:
    out = torch.zeros(ptr.numel() - 1, x.shape[1], dtype=torch.float64, device=x.device)
    out.index_add_(0, batch, x.double())
    return out.to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    n = s["G"] * s["NODES"]
    return {"bytes": n * s["F"] * item + 8 * n + s["G"] * s["F"] * item, "flops": n * s["F"]}
