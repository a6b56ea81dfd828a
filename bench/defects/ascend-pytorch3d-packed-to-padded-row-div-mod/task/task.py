"""pytorch3d.ops.packed_to_padded: scatter a packed per-element tensor of a mesh batch into a padded one.

Meshes keeps per-vertex (or per-face) data packed, inputs [F, D] with mesh n owning rows
first_idxs[n] .. first_idxs[n + 1] - 1 (the last mesh runs to F). packed_to_padded(inputs, first_idxs,
max_size) returns out [N, max_size, D] with
    out[n, i, :] = inputs[first_idxs[n] + i, :]   for i < num_n,   0 elsewhere (pytorch3d pads with zeros),
the op behind Meshes.verts_padded() / faces_padded() and the per-face attributes the renderer pads.
"""
import torch

META = {
    "name": "packed_to_padded",
    "level": 1,
    "category": "copy",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"N": 3, "max_size": 40, "D": 3},
        "ragged": {"N": 5, "max_size": 67, "D": 5},
        "large": {"N": 32, "max_size": 65536, "D": 3},
    },
    "baseline_notes": "One launch, 40 programs (the 910B4's vector cores); for every mesh the programs take "
                      "turns on 8192-element chunks of its num_n * D contiguous packed values and copy each "
                      "chunk to the same flat offset of the mesh's padded slab (a row of D values is D "
                      "consecutive elements on both sides); the padding rows stay as the zero-filled "
                      "allocation; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """inputs [F, D] (vertex positions and attributes), first_idxs [N] int64, max_size (int).

    Mesh sizes are uniform in [max_size / 8, max_size] (a batch of ShapeNet-like meshes), one of them
    max_size, as Meshes pads to the largest mesh.
    """
    s = META["sizes"][size]
    N, M, D = s["N"], s["max_size"], s["D"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    num = torch.randint(max(1, M // 8), M + 1, (N,), generator=g)
    num[N // 2] = M
    first_idxs = torch.cumsum(num, 0) - num
    inputs = torch.randn(int(num.sum()), D, generator=g)
    return inputs.to(dt).to(device), first_idxs.to(device), M


def reference(inputs: torch.Tensor, first_idxs: torch.Tensor, max_size: int) -> torch.Tensor:
    N, F, D = first_idxs.shape[0], inputs.shape[0], inputs.shape[1]
    out = torch.zeros(N, max_size, D, dtype=inputs.dtype, device=inputs.device)
    bounds = first_idxs.tolist() + [F]
    for n in range(N):
        out[n, :bounds[n + 1] - bounds[n]] = inputs[bounds[n]:bounds[n + 1]]
    return out


def cost(size: str, dtype: str | None = None) -> dict:
    """Bytes of the kernel: the packed values read and written once (the zero fill is the allocation's)."""
    s = META["sizes"][size]
    N, M, D = s["N"], s["max_size"], s["D"]
    g = torch.Generator().manual_seed(0)
    num = torch.randint(max(1, M // 8), M + 1, (N,), generator=g)
    num[N // 2] = M
    return {"bytes": 2 * 4 * int(num.sum()) * D, "flops": 0}
