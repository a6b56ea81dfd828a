"""Paged-KV slot mapping of a scheduled batch (vLLM v1 BlockTable.compute_slot_mapping): slot = block_table[req, pos // B] * B + pos % B for each scheduled token, PAD_SLOT_ID (-1) for the padding of the persistent token buffer."""
import torch

META = {
    "name": "compute_slot_mapping",
    "level": 1,
    "category": "gather",
    "dtypes": ["int64"],
    "tolerance": {"int64": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"R": 5, "MAX_TOKENS": 96, "MAX_BLOCKS": 16, "B": 16},
        "ragged": {"R": 37, "MAX_TOKENS": 3000, "MAX_BLOCKS": 64, "B": 16},
        "large": {"R": 256, "MAX_TOKENS": 16384, "MAX_BLOCKS": 512, "B": 16},
    },
    "baseline_notes": "One launch, grid (R + 1): program r < R writes its request's slots in 256-token blocks "
                      "from query_start_loc on the device; program R pads from query_start_loc[R] to the buffer end.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """positions [MAX_TOKENS] int64 (valid up to the scheduled count), query_start_loc [R + 1] int32,
    block_table [R, MAX_BLOCKS] int32 and the block size."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    R, B, mb = s["R"], s["B"], s["MAX_BLOCKS"]
    budget = (3 * s["MAX_TOKENS"]) // 4
    q_lens = torch.randint(1, max(2, 2 * budget // R), (R,), generator=g)
    q_lens = torch.clamp(q_lens, max=mb * B // 2)
    while int(q_lens.sum()) > budget:
        q_lens = torch.clamp(q_lens // 2, min=1)
    ctx = torch.randint(0, mb * B // 2, (R,), generator=g)
    qsl = torch.zeros(R + 1, dtype=torch.int32)
    qsl[1:] = torch.cumsum(q_lens, 0).to(torch.int32)
    positions = torch.zeros(s["MAX_TOKENS"], dtype=torch.int64)
    for r in range(R):
        positions[int(qsl[r]):int(qsl[r + 1])] = ctx[r] + torch.arange(int(q_lens[r]))
    block_table = torch.randint(0, 1 << 20, (R, mb), generator=g, dtype=torch.int32)
    return positions.to(device), qsl.to(device), block_table.to(device), B


def reference(positions, qsl, block_table, block_size) -> torch.Tensor:
    n = int(qsl[-1])
    lens = (qsl[1:] - qsl[:-1]).long()
    req = torch.repeat_interleave(torch.arange(len(lens), device=positions.device), lens)
    pos = positions[:n]
    out = torch.full_like(positions, -1)
    out[:n] = block_table[req, pos // block_size].long() * block_size + pos % block_size
    return out


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 8 * s["MAX_TOKENS"] * 2 + 4 * s["MAX_TOKENS"] + 4 * (s["R"] + 1), "flops": 0}
