"""First layer of a MeshGraphNet edge-update MLP (NVIDIA Modulus / DeepMind MeshGraphNets EdgeBlock):
h_e = silu(concat(e_feat[e], n_feat[src[e]], n_feat[dst[e]]) @ W + b) for every directed edge e.
e_feat bf16 [E, D], n_feat bf16 [N, D], src / dst int32 [E] (edges sorted by dst), W bf16 [3D, D],
b fp32 [D]; output bf16 [E, D]."""
import torch

META = {
    "name": "meshgraphnet_edge_mlp_layer1",
    "level": 2,
    "category": "gemm",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 2e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"E": 200, "N": 60, "D": 32},
        "ragged": {"E": 333, "N": 101, "D": 64},
        "large": {"E": 1800000, "N": 300000, "D": 128},
    },
    "baseline_notes": "One kernel: a (128-edge, 128-feature) output tile per program whose K loop reads its A "
                      "tiles straight from the three sources (edge rows, gathered src rows, gathered dst rows) "
                      "into bf16 tl.dot with an fp32 accumulator, bias + SiLU in the epilogue; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    E, N, D = s["E"], s["N"], s["D"]
    dt = getattr(torch, dtype or META["dtypes"][0])
    efeat = torch.randn(E, D, generator=g).to(dt)
    nfeat = torch.randn(N, D, generator=g).to(dt)
    src = torch.randint(0, N, (E,), generator=g).to(torch.int32)
    dst = torch.randint(0, N, (E,), generator=g).sort().values.to(torch.int32)
    w = (torch.randn(3 * D, D, generator=g) / (3 * D) ** 0.5).to(dt)
    b = torch.randn(D, generator=g) * 0.1
    return tuple(t.to(device) for t in (efeat, nfeat, src, dst, w, b))


def reference(efeat, nfeat, src, dst, w, b) -> torch.Tensor:
    x = torch.cat([efeat.float(), nfeat.float()[src.long()], nfeat.float()[dst.long()]], dim=1)
    h = x.double() @ w.double() + b.double()
    return torch.nn.functional.silu(h).to(efeat.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    E, D = s["E"], s["D"]
    return {"bytes": 2 * E * D * 4 + 8 * E + 2 * 3 * D * D + 4 * D, "flops": 2 * E * 3 * D * D}
