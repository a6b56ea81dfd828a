"""Batched variable-size byte copies of Mamba / GDN per-layer states (vLLM v1 mamba_utils batch_memcpy, the
kernel vLLM-ascend runs for its state copies): copy i moves sizes[i] bytes from the state pool at
src_offs[i] to dst_offs[i]. Here the destinations tile a fresh staging buffer, so the task is out of place."""
import torch

META = {
    "name": "mamba_state_batch_memcpy",
    "level": 1,
    "category": "copy",
    "dtypes": ["uint8"],
    "tolerance": {"uint8": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"copies": 6, "sizes": [1000, 4100]},
        "ragged": {"copies": 37, "sizes": [333, 9001]},
        "large": {"copies": 576, "sizes": [24576, 262144]},
    },
    "baseline_notes": "One program per copy, streaming it in 8192-byte tiles (vLLM-ascend's tile), one masked "
                      "load and store per tile.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """pool uint8 [P] (the states of every cache block), src_offs int64 [C], dst_offs int64 [C], sizes int32 [C],
    and the staging size in bytes (known on the host, where the copy list is built).
    Copies alternate conv-state and temporal-state sizes (one pair per GDN layer); sources are distinct pool slots."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    C = s["copies"]
    sizes = torch.tensor([s["sizes"][i % 2] for i in range(C)], dtype=torch.int64)
    slot = max(s["sizes"])
    num_slots = 2 * C
    pool = torch.randint(0, 256, (num_slots * slot,), generator=g, dtype=torch.uint8)
    src_slots = torch.randperm(num_slots, generator=g)[:C]
    src_offs = src_slots * slot
    dst_offs = torch.zeros(C, dtype=torch.int64)
    dst_offs[1:] = torch.cumsum(sizes, 0)[:-1]
    return (pool.to(device), src_offs.to(device), dst_offs.to(device), sizes.to(device=device, dtype=torch.int32),
            int(sizes.sum()))


def reference(pool, src_offs, dst_offs, sizes, total: int) -> torch.Tensor:
    out = torch.empty(total, dtype=torch.uint8, device=pool.device)
    for s, d, n in zip(src_offs.tolist(), dst_offs.tolist(), sizes.tolist()):
        out[d:d + n] = pool[s:s + n]
    return out


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    total = s["copies"] // 2 * sum(s["sizes"]) + (s["copies"] % 2) * s["sizes"][0]
    return {"bytes": 2 * total, "flops": 0}
