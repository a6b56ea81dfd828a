"""Flow lookup of a packet batch: hash each IPv4 frame's connection 4-tuple with the Linux
established-socket hash (inet_ehashfn: jhash_3words(saddr, daddr, sport << 16 | dport, secret)),
then find the hash in the sorted table of active-flow keys (lower_bound) and return its slot,
or -1 for a packet of a flow that is not in the table.

Frames are packed back to back in one byte buffer at int32 offsets: source address at frame
bytes 26-29, destination at 30-33 (read as the little-endian u32 a receiving x86 host loads),
ports at 34-37 (big-endian, host order sport << 16 | dport).
"""
import torch

SECRET = 0x3C6EF372
M32 = 0xFFFFFFFF

META = {
    "name": "flow_hash_lookup",
    "level": 2,
    "category": "search",
    "dtypes": ["uint8"],
    "tolerance": {"uint8": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"N": 24, "F": 20, "MAXPAY": 16},
        "ragged": {"N": 37, "F": 53, "MAXPAY": 29},
        "large": {"N": 131072, "F": 32768, "MAXPAY": 0},
    },
    "baseline_notes": "Programs of 128 packets, one per lane: twelve header-byte gathers, the jhash_3words "
                      "mix in uint32, then a branch-free binary search of ceil(log2(F + 1)) steps over the "
                      "sorted int64 keys and one equality check; no autotune.",
    "deterministic": True,
}


def _rol(x, k):
    return ((x << k) | (x >> (32 - k))) & M32


def jhash_3words(a, b, c, initval=SECRET):
    init = (initval + 0xDEADBEEF + (3 << 2)) & M32
    a, b, c = (a + init) & M32, (b + init) & M32, (c + init) & M32
    c = ((c ^ b) - _rol(b, 14)) & M32
    a = ((a ^ c) - _rol(c, 11)) & M32
    b = ((b ^ a) - _rol(a, 25)) & M32
    c = ((c ^ b) - _rol(b, 16)) & M32
    a = ((a ^ c) - _rol(c, 4)) & M32
    b = ((b ^ a) - _rol(a, 14)) & M32
    c = ((c ^ b) - _rol(b, 24)) & M32
    return c


def _hash_tuple(t):
    """t [..., 12] int64 wire bytes 26-37 -> inet_ehashfn value as int64."""
    le = lambda x: x[..., 0] | (x[..., 1] << 8) | (x[..., 2] << 16) | (x[..., 3] << 24)
    ports = (t[..., 8] << 24) | (t[..., 9] << 16) | (t[..., 10] << 8) | t[..., 11]
    return jhash_3words(le(t[..., 0:4]), le(t[..., 4:8]), ports)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """data [total] uint8 (packed frames), offsets [N] int32, keys [F'] int64 (sorted unique flow hashes)."""
    s = META["sizes"][size]
    N, F = s["N"], s["F"]
    g = torch.Generator().manual_seed(seed)
    flows = torch.randint(0, 256, (F, 12), generator=g)
    keys = torch.unique(_hash_tuple(flows), sorted=True)
    # heavy-tailed flow popularity; about one packet in ten opens a flow the table does not hold yet
    pick = (torch.rand(N, generator=g) ** 3 * F).long().clamp(max=F - 1)
    tuples = flows[pick]
    fresh = torch.rand(N, generator=g) < 0.1
    tuples[fresh] = torch.randint(0, 256, (int(fresh.sum()), 12), generator=g)
    if s["MAXPAY"]:
        lengths = 54 + torch.randint(0, s["MAXPAY"] + 1, (N,), generator=g)
    else:  # simple IMIX 7:4:1 of 64 / 594 / 1518-byte frames
        k = torch.randint(0, 12, (N,), generator=g)
        lengths = torch.where(k < 7, 64, torch.where(k < 11, 594, 1518))
    offsets = torch.cumsum(lengths, 0) - lengths
    data = torch.randint(0, 256, (int(lengths.sum()),), generator=g, dtype=torch.uint8)
    data[offsets + 12], data[offsets + 13] = 0x08, 0x00
    data[offsets + 14], data[offsets + 23] = 0x45, 6
    data[offsets[:, None] + torch.arange(26, 38)[None, :]] = tuples.to(torch.uint8)
    return data.to(device), offsets.to(torch.int32).to(device), keys.to(device)


def reference(data: torch.Tensor, offsets: torch.Tensor, keys: torch.Tensor) -> torch.Tensor:
    pos = offsets.long()[:, None] + torch.arange(26, 38, device=data.device)[None, :]
    h = _hash_tuple(data[pos].long())
    slot = torch.searchsorted(keys, h)
    found = keys[slot.clamp(max=keys.numel() - 1)] == h
    return torch.where(found & (slot < keys.numel()), slot, -1).to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": s["N"] * (4 + 32 + 4) + 8 * s["F"], "flops": s["N"] * 40}
