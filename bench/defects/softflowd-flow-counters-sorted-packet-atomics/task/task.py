"""Per-flow counters of a NetFlow/IPFIX flow meter (softflowd's flow_update / transport_to_flowrec).

A batch of packet records has been classified into flows (flow_id from the 5-tuple lookup) and sorted by
(flow_id, timestamp), as a GPU flow meter does before folding a batch into its flow table. For every
flow f the export record carries
  packets[f]   = number of packets of f                 (dPkts / packetDeltaCount)
  octets[f]    = sum of the IP total lengths             (dOctets / octetDeltaCount)
  first[f]     = earliest packet timestamp (us)          (flow_start)
  last[f]      = latest packet timestamp (us)            (flow_last)
  tcp_flags[f] = bitwise OR of the packets' TCP flags    (tcp_flags[ndx] |= th_flags)
Inputs: flow_id int32 [N] (sorted, every flow in [0, n_flows) has at least one packet), ip_len int32
[N], ts int64 [N] (microseconds since the epoch), tcp_flags uint8 [N], n_flows (int).
Returns (packets int32 [F], octets int64 [F], first int64 [F], last int64 [F], tcp_flags int32 [F]).
"""
import torch

META = {
    "name": "flow_meter_counters",
    "level": 1,
    "category": "network-analytics",
    "dtypes": ["int32"],
    "tolerance": {"int32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"N": 2600, "F": 150},
        "ragged": {"N": 3001, "F": 211},
        "large": {"N": 16777216, "F": 1048576},
    },
    "baseline_notes": "Grid over blocks of 1024 packet records; each program runs one segmented inclusive "
                      "scan keyed by flow_id (count, octet sum, min/max timestamp, OR of flags) and issues "
                      "the five atomics only at the last record of each flow run inside the block (about one "
                      "set per flow plus one per block boundary). 4 warps, no autotune.",
    "deterministic": True,
}
EPOCH_US = 1_717_000_000_000_000  # batch start, microseconds since 1970
INTERVAL_US = 300_000_000         # one 5-minute export interval


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Heavy-tailed flow sizes (Lomax weights: many 1-3 packet flows - scans, DNS - and a few elephant
    flows holding most packets), 85% TCP flows (SYN first, ACK/PSH in between, FIN|ACK last, some RST),
    15% UDP flows (flags 0); IP lengths a mix of 52-byte ACKs, full 1500-byte segments and mid sizes."""
    s = META["sizes"][size]
    n, f = s["N"], s["F"]
    g = torch.Generator().manual_seed(seed)
    w = torch.rand(f, generator=g, dtype=torch.float64).clamp(min=1e-12) ** (-1.0 / 1.1) - 1.0
    extra = torch.floor(w / w.sum() * (n - f)).long()
    extra[torch.argmax(w)] += (n - f) - int(extra.sum())
    per_flow = extra + 1
    flow_id = torch.repeat_interleave(torch.arange(f), per_flow)
    start = torch.randint(0, INTERVAL_US, (f,), generator=g)
    dur = torch.where(per_flow > 1, torch.randint(1, INTERVAL_US, (f,), generator=g), torch.zeros_like(start))
    rel = start[flow_id] + (torch.rand(n, generator=g, dtype=torch.float64) * dur[flow_id]).long()
    order = torch.sort(flow_id.long() * (1 << 40) + rel).indices
    rel = rel[order]
    offsets = torch.cumsum(per_flow, 0) - per_flow
    pos = torch.arange(n) - offsets[flow_id]
    is_first = pos == 0
    is_last = pos == per_flow[flow_id] - 1
    tcp = (torch.rand(f, generator=g) < 0.85)[flow_id]
    flags = 0x10 | torch.where(torch.rand(n, generator=g) < 0.3, 0x08, 0)
    flags = torch.where(is_last & (per_flow[flow_id] > 1), torch.where(torch.rand(n, generator=g) < 0.05, 0x04, 0x11), flags)
    flags = torch.where(is_first, 0x02, flags)
    flags = torch.where(tcp, flags, 0)
    u = torch.rand(n, generator=g)
    ip_len = torch.where(u < 0.4, 52, torch.where(u < 0.8, 1500, torch.randint(60, 1400, (n,), generator=g)))
    ip_len = torch.where(tcp, ip_len, torch.randint(40, 600, (n,), generator=g))
    return (flow_id.to(device=device, dtype=torch.int32), ip_len.to(device=device, dtype=torch.int32),
            (EPOCH_US + rel).to(device=device, dtype=torch.int64), flags.to(device=device, dtype=torch.uint8), f)


def reference(flow_id: torch.Tensor, ip_len: torch.Tensor, ts: torch.Tensor, tcp_flags: torch.Tensor,
              n_flows: int) -> tuple:
    idx = flow_id.long()
    dev = flow_id.device
    packets = torch.zeros(n_flows, dtype=torch.int64, device=dev).index_add_(0, idx, torch.ones_like(idx))
    octets = torch.zeros(n_flows, dtype=torch.int64, device=dev).index_add_(0, idx, ip_len.long())
    first = torch.full((n_flows,), torch.iinfo(torch.int64).max, dtype=torch.int64, device=dev)
    first = first.scatter_reduce(0, idx, ts, reduce="amin")
    last = torch.zeros(n_flows, dtype=torch.int64, device=dev).scatter_reduce(0, idx, ts, reduce="amax")
    fl = tcp_flags.long()
    union = torch.zeros(n_flows, dtype=torch.int64, device=dev)
    for bit in range(8):
        hit = torch.zeros(n_flows, dtype=torch.int64, device=dev).index_add_(0, idx, (fl >> bit) & 1)
        union |= (hit > 0).long() << bit
    return packets.to(torch.int32), octets, first, last, union.to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 17 * s["N"] + 32 * s["F"], "flops": 0}
