"""TCP checksum of a receive/transmit batch of IPv4 frames (DPDK rte_ipv4_udptcp_cksum: rte_raw_cksum
of the L4 segment plus rte_ipv4_phdr_cksum, folded and complemented).

Each frame sits at the start of a fixed-size mbuf data room (pkts [N, ROOM] uint8, bytes past the
frame length are stale), with a 14-byte Ethernet header, a 20-byte IPv4 header and a TCP segment
whose checksum field (frame bytes 50-51) is zero. The one's-complement sum covers the pseudo-header
(source and destination address, protocol 6, TCP length = frame length - 34) and the segment as
big-endian 16-bit words, an odd last byte padded with zero.
"""
import torch

META = {
    "name": "tcp_checksum_batch",
    "level": 2,
    "category": "reduction",
    "dtypes": ["uint8"],
    "tolerance": {"uint8": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"N": 6, "ROOM": 128},
        "ragged": {"N": 11, "ROOM": 202},
        "large": {"N": 65536, "ROOM": 2048},
    },
    "baseline_notes": "One program per frame, BLOCK = next_power_of_2(ROOM) bytes loaded once under the "
                      "frame-length mask, even bytes weighted by 256, one tl.sum, two carry folds and the "
                      "complement; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """pkts [N, ROOM] uint8 (frames at the start of each data room), lengths [N] int32 (frame bytes)."""
    s = META["sizes"][size]
    N, room = s["N"], s["ROOM"]
    g = torch.Generator().manual_seed(seed)
    pkts = torch.randint(0, 256, (N, room), generator=g, dtype=torch.uint8)
    if room >= 1518:  # simple IMIX 7:4:1 of 64 / 594 / 1518-byte frames
        pick = torch.randint(0, 12, (N,), generator=g)
        lengths = torch.where(pick < 7, 64, torch.where(pick < 11, 594, 1518))
    else:
        lengths = torch.randint(54, room + 1, (N,), generator=g)
        lengths[0] = room
    ip_len = lengths - 14
    pkts[:, 12], pkts[:, 13] = 0x08, 0x00
    pkts[:, 14], pkts[:, 15] = 0x45, 0x00
    pkts[:, 16], pkts[:, 17] = (ip_len >> 8).to(torch.uint8), (ip_len & 0xFF).to(torch.uint8)
    pkts[:, 23] = 6
    pkts[:, 50], pkts[:, 51] = 0, 0
    return pkts.to(device), lengths.to(torch.int32).to(device)


def reference(pkts: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
    N, room = pkts.shape
    n = lengths.to(torch.int32)[:, None]
    pos = torch.arange(room, device=pkts.device, dtype=torch.int32)[None, :]
    b = torch.where((pos >= 26) & (pos < n), pkts.to(torch.int32), 0)
    s = (b[:, 0::2] * 256 + b[:, 1::2]).sum(1, dtype=torch.int64) + 6 + lengths.long() - 34
    s = (s >> 16) + (s & 0xFFFF)
    s = (s >> 16) + (s & 0xFFFF)
    return (0xFFFF - s).to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    mean = (7 * 64 + 4 * 594 + 1518) / 12 if s["ROOM"] >= 1518 else (54 + s["ROOM"]) / 2
    return {"bytes": int(s["N"] * (mean - 26 + 8)), "flops": int(s["N"] * mean)}
