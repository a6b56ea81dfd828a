"""Hash-join probe into an open-addressing hash table (cuCollections static_map as used by cuDF's hash join:
linear probing, load factor ~0.5, murmur3 fmix32 hash, key/value pairs stored interleaved, empty key -1).

PK-FK join of the SSB fact table with a filtered dimension (lineorder.lo_custkey against the customers of one
region, c_custkey -> c_nation): for every probe key, the matching build value, or -1 when the key is absent
(the left join's build-side gather map).
"""
import torch

META = {
    "name": "static_map_join_probe",
    "level": 2,
    "category": "analytics",
    "dtypes": ["int32"],
    "tolerance": {"int32": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"N": 600, "BUILD": 28, "CAP": 64, "DOMAIN": 140},
        "ragged": {"N": 333, "BUILD": 13, "CAP": 32, "DOMAIN": 65},
        "large": {"N": 120_000_000, "BUILD": 120_000, "CAP": 262_144, "DOMAIN": 600_000},
    },
    "baseline_notes": "BLOCK = 1024 probe keys per program: fmix32 hash, one gather of the home slots, then a "
                      "while loop that advances only the lanes still on an occupied foreign slot and stops when "
                      "none is left; one gather of the matched values; 4 warps, no autotune.",
    "deterministic": True,
}


def fmix32(k: torch.Tensor) -> torch.Tensor:
    h = k.to(torch.int64) & 0xFFFFFFFF
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & 0xFFFFFFFF
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & 0xFFFFFFFF
    h ^= h >> 16
    return h


def _build(keys: torch.Tensor, vals: torch.Tensor, cap: int) -> torch.Tensor:
    """Linear-probing insert of distinct keys, all pending keys advancing one slot per round."""
    owner = torch.full((cap,), -1, dtype=torch.int64)
    home = fmix32(keys) & (cap - 1)
    pending = torch.arange(keys.numel())
    disp = torch.zeros(keys.numel(), dtype=torch.int64)
    while pending.numel():
        slot = (home[pending] + disp[pending]) & (cap - 1)
        free = owner[slot] < 0
        first = torch.full((cap,), keys.numel(), dtype=torch.int64)
        first.scatter_reduce_(0, slot[free], pending[free], reduce="amin")
        won = free & (first[slot] == pending)
        owner[slot[won]] = pending[won]
        disp[pending[~won]] += 1
        pending = pending[~won]
    table = torch.full((cap, 2), -1, dtype=torch.int32)
    used = owner >= 0
    table[used, 0] = keys[owner[used]]
    table[used, 1] = vals[owner[used]]
    return table


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """table [CAP, 2] int32 (key, value; key -1 = empty), probe [N] int32."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    keys = (torch.randperm(s["DOMAIN"], generator=g)[: s["BUILD"]] + 1).to(torch.int32)
    vals = torch.randint(0, 25, (s["BUILD"],), generator=g, dtype=torch.int32)
    table = _build(keys, vals, s["CAP"])
    probe = torch.randint(1, s["DOMAIN"] + 1, (s["N"],), generator=g, dtype=torch.int32)
    dt = getattr(torch, dtype or META["dtypes"][0])
    return table.to(device), probe.to(dt).to(device)


def reference(table: torch.Tensor, probe: torch.Tensor) -> torch.Tensor:
    used = table[:, 0] >= 0
    keys, vals = table[used, 0].long(), table[used, 1]
    size = int(max(int(keys.max()) if keys.numel() else 0, int(probe.max()))) + 1
    lut = torch.full((size,), -1, dtype=torch.int32, device=table.device)
    lut[keys] = vals
    return lut[probe.long()]


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 8 * s["N"] + 8 * s["CAP"], "flops": 20 * s["N"]}
