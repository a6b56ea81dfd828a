"""FSDP2 all-gather copy-out: scatter the rank-major all-gather output into each parameter's unsharded tensor.

PyTorch FSDP2 (torch/distributed/fsdp/_fully_shard/_fsdp_collectives.py, foreach_all_gather_copy_out)
all-gathers the concatenated shards of every parameter of one module into a [world_size, S] buffer
(rank-major: row r holds rank r's shard of parameter 0, then of parameter 1, ...; S is the sum of the
padded shard sizes), then copies parameter i's columns [o_i, o_i + s_i) of every row into its
unsharded tensor viewed as [world_size, s_i] (split_with_sizes_copy along dim 1). Here the unsharded
parameters are returned as one flat tensor of their concatenation (parameter i at W * o_i).
"""
import torch

META = {
    "name": "fsdp2_all_gather_copy_out",
    "level": 2,
    "category": "layout",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        # a LLaMA-style decoder layer: q, k, v, o, gate, up, down, input norm, post-attention norm
        "small": {"world": 4, "hidden": 32, "kv": 8, "inter": 86},
        "ragged": {"world": 2, "hidden": 52, "kv": 13, "inter": 139},
        "large": {"world": 8, "hidden": 4096, "kv": 1024, "inter": 14336},
    },
    "baseline_notes": "40 programs (one per AIV core); for each parameter in turn the programs share its "
                      "columns in 2048-wide chunks and copy a [world, 2048] tile: world contiguous row loads "
                      "from the all-gather output, world contiguous row stores into the parameter; no autotune.",
    "deterministic": True,
}


def shard_sizes(size: str) -> list[int]:
    """FSDP2 padded shard numel of each parameter: dim 0 padded to a multiple of the world size."""
    s = META["sizes"][size]
    w, h, kv, f = s["world"], s["hidden"], s["kv"], s["inter"]
    shapes = [(h, h), (kv, h), (kv, h), (h, h), (f, h), (f, h), (h, f), (h,), (h,)]
    return [-(-shape[0] // w) * (shape[1] if len(shape) > 1 else 1) for shape in shapes]


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """all_gather_output [W, S] and the per-parameter shard sizes [P] int32 (their sum is S)."""
    sizes = shard_sizes(size)
    world = META["sizes"][size]["world"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    gathered = 0.02 * torch.randn(world, sum(sizes), generator=g)
    return gathered.to(dt).to(device), torch.tensor(sizes, dtype=torch.int32, device=device)


def reference(all_gather_output: torch.Tensor, split_sizes: torch.Tensor) -> torch.Tensor:
    parts = torch.split(all_gather_output, split_sizes.tolist(), dim=1)
    return torch.cat([p.reshape(-1) for p in parts])


def cost(size: str, dtype: str | None = None) -> dict:
    numel = META["sizes"][size]["world"] * sum(shard_sizes(size))
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": 2 * numel * item, "flops": 0}
