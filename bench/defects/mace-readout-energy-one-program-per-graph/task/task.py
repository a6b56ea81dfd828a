"""MACE energy head: the last interaction's NonLinearReadoutBlock plus the atomic reference energies,
summed per graph (mace/modules/models.py: node_e0 = atomic_energies_fn(node_attrs), node_energies =
readout(node_feats), energy = scatter_sum(node_energy, batch, dim_size=num_graphs)).

x [N, 128] are the final scalar node features (128x0e); the readout is e3nn o3.Linear(128x0e -> 16x0e),
nn.Activation(silu) (normalize2mom: 1.6765... * silu), o3.Linear(16x0e -> 1x0e), e3nn's path
normalisation dividing each linear by sqrt(fan_in):

  node_energy[n] = E0[z[n]] + (act(x[n] @ W1 / sqrt(128)) @ w2) / sqrt(16)
  energy[g]      = sum of node_energy over the nodes of graph g

Nodes are grouped by graph (PyG batching): graph g owns nodes ptr[g] .. ptr[g+1]-1. Returns
(node_energy [N] fp32, energy [G] fp32). The tolerance admits TF32 products in the 128 -> 16 layer.
"""
import math

import torch

SILU_2MOM = 1.6765324703310909  # 1 / sqrt(E[silu(z)^2]), z ~ N(0, 1)
NUM_ELEMENTS = 89               # MACE-MP-0 element table

META = {
    "name": "mace_readout_graph_energy",
    "level": 2,
    "category": "equivariant_gnn",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-3, "rtol": 2e-3}},
    "sizes": {
        "small": {"graphs": [9, 17, 14], "C": 128, "hidden": 16},
        "ragged": {"graphs": [3, 41, 33], "C": 128, "hidden": 16},
        "large": {"graphs": [131072], "C": 128, "hidden": 16},
    },
    "baseline_notes": "One launch over (graph, split) programs: each graph's nodes are cut into 64-node tiles "
                      "and up to ~528 programs share them (tile s, s + SPLIT, ...); a program computes the "
                      "readout of its tiles with one tl.dot per tile (TF32), stores the node energies, keeps "
                      "its partial graph sum in registers and adds it with one atomic. 4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [N, C], element index z [N] int32, batch pointer ptr [G+1] int32, E0 [89], W1 [C, 16], w2 [16]."""
    s = META["sizes"][size]
    sizes, c, h = s["graphs"], s["C"], s["hidden"]
    n = sum(sizes)
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.randn(n, c, generator=g)
    z = torch.randint(0, NUM_ELEMENTS, (n,), generator=g, dtype=torch.int32)
    ptr = torch.tensor([0] + sizes, dtype=torch.int64).cumsum(0).to(torch.int32)
    e0 = -1.0 - 8.0 * torch.rand(NUM_ELEMENTS, generator=g)
    w1 = torch.randn(c, h, generator=g)
    w2 = torch.randn(h, generator=g)
    return (x.to(device=device, dtype=dt), z.to(device), ptr.to(device), e0.to(device=device, dtype=dt),
            w1.to(device=device, dtype=dt), w2.to(device=device, dtype=dt))


def reference(x, z, ptr, e0, w1, w2) -> tuple:
    xd = x.double()
    hidden = SILU_2MOM * torch.nn.functional.silu(xd @ w1.double() / math.sqrt(w1.shape[0]))
    node = e0.double()[z.long()] + hidden @ w2.double() / math.sqrt(w2.shape[0])
    counts = (ptr[1:] - ptr[:-1]).long()
    batch = torch.repeat_interleave(torch.arange(counts.shape[0], device=x.device), counts)
    energy = torch.zeros(counts.shape[0], dtype=torch.float64, device=x.device).index_add_(0, batch, node)
    return node.to(x.dtype), energy.to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n, c, h = sum(s["graphs"]), s["C"], s["hidden"]
    return {"bytes": n * (4 * c + 12), "flops": 2 * n * h * (c + 1)}
