"""Traffic-feature entropy of one NetFlow/IPFIX collector interval (Lakhina, Crovella & Diot, "Mining
Anomalies Using Traffic Feature Distributions", SIGCOMM 2005), the detector run at every 5-minute bin.

For each traffic feature - source address, destination address, source port, destination port - the
collector has folded the interval's flow records into a packet-count histogram over hashed buckets
(one row of n_buckets per feature). Per feature with counts c_b, S = sum_b c_b packets and
K = number of non-empty buckets:
  H      = -sum_{c_b > 0} (c_b / S) log2(c_b / S) = log2 S - (1 / S) sum_b c_b log2 c_b
  H_norm = H / log2 K   (0 when K < 2)
Dispersed features (a scan's destination ports, a DDoS's source addresses) raise H, concentrated ones
(a flood to one victim) lower it. Input hist int32 [n_features, n_buckets]; returns (H, H_norm) fp32
[n_features]. Empty rows give 0.
"""
import torch

META = {
    "name": "traffic_feature_entropy",
    "level": 1,
    "category": "network-analytics",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"features": 4, "buckets": 20000},
        "ragged": {"features": 4, "buckets": 33333},
        "large": {"features": 4, "buckets": 1048576},
    },
    "baseline_notes": "Two launches: a (feature, piece) grid where each program reduces a 4096-bucket piece "
                      "of one histogram (count sum in int64, sum of c log2 c in fp32, non-empty count) in "
                      "1024-wide blocks and writes its partials, then one small program per feature adds "
                      "the partials and forms H and H_norm. 4 warps, no autotune.",
    "deterministic": True,
}
PACKETS = 300_000_000  # one 5-minute bin at 1 Mpps


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Four hashed histograms with the interval's characteristic shapes: Zipf-like source and destination
    addresses (a few heavy talkers, a long tail of active hosts), source ports spread over the ephemeral
    range, destination ports concentrated on a handful of services plus a vertical scan's thin spread."""
    s = META["sizes"][size]
    nf, nb = s["features"], s["buckets"]
    g = torch.Generator().manual_seed(seed)
    rows = []
    for feat in range(nf):
        kind = feat % 4
        active = {0: 0.40, 1: 0.20, 2: 0.06, 3: 0.03}[kind]
        alpha = {0: 1.05, 1: 1.15, 2: 0.35, 3: 1.6}[kind]
        k = max(2, int(active * nb))
        ranks = torch.arange(1, k + 1, dtype=torch.float64)
        w = ranks ** (-alpha)
        if kind == 3:
            w = w + 0.02 * w.sum() / k
        where = torch.randperm(nb, generator=g)[:k]
        rate = torch.zeros(nb, dtype=torch.float64)
        rate[where] = w / w.sum() * PACKETS
        rows.append(torch.poisson(rate, generator=g))
    hist = torch.stack(rows).to(torch.int32)
    return (hist.to(device),)


def reference(hist: torch.Tensor) -> tuple:
    c = hist.double()
    s = c.sum(dim=1)
    clogc = torch.where(c > 0, c * torch.log2(c.clamp(min=1.0)), torch.zeros_like(c)).sum(dim=1)
    k = (hist > 0).sum(dim=1).double()
    safe = s.clamp(min=1.0)
    h = torch.where(s > 0, torch.log2(safe) - clogc / safe, torch.zeros_like(s))
    hn = torch.where(k > 1, h / torch.log2(k.clamp(min=2.0)), torch.zeros_like(h))
    return h.float(), hn.float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 4 * s["features"] * s["buckets"], "flops": 4 * s["features"] * s["buckets"]}
