"""Graph readout sum pooling (PyG global_add_pool / torch_scatter.segment_coo(x, batch, reduce="sum")):
x [N, D] node features of G graphs packed back to back, batch [N] int32 the sorted graph id of each
node; out[g] = sum of the rows of graph g (0 for a graph with no nodes). Output float32 [G, D]."""
import torch

META = {
    "name": "graph_readout_segment_sum",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"G": 9, "N": 300, "D": 16},
        "ragged": {"G": 31, "N": 2999, "D": 40},
        "large": {"G": 512, "N": 1048576, "D": 128},
    },
    "baseline_notes": "Two kernels: a vectorised lower-bound binary search gives every graph's first node "
                      "(the ids are sorted), then a grid of the 40 vector cores sums each graph's rows in "
                      "[64, D] tiles and stores the row once; no atomics, no zero-initialised output.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [N, D], batch [N] int32 sorted (graph sizes vary ~4x, one graph empty) and G."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    weights = torch.rand(s["G"], generator=g) * 3.0 + 1.0
    weights[torch.randint(0, s["G"], (1,), generator=g)] = 0.0
    batch = torch.multinomial(weights, s["N"], replacement=True, generator=g).sort().values
    x = torch.randn(s["N"], s["D"], generator=g)
    return x.to(dt).to(device), batch.to(torch.int32).to(device), s["G"]


def reference(x: torch.Tensor, batch: torch.Tensor, num_graphs: int) -> torch.Tensor:
    out = torch.zeros(num_graphs, x.shape[1], dtype=torch.float64, device=x.device)
    out.index_add_(0, batch.long(), x.double())
    return out.to(torch.float32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 4 * s["N"] * s["D"] + 4 * s["N"] + 4 * s["G"] * s["D"], "flops": s["N"] * s["D"]}
