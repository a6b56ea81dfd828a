"""FLAC encoder: per-partition residual sums, Rice parameters and coded sizes at the max partition order.

libFLAC's stream encoder (precompute_partition_info_sums_ + set_partitioned_rice_ in
stream_encoder.c) splits the residual of every subframe (blocksize N) into P = 2^p partitions of
N / P samples; partition 0 loses the predictor's warm-up samples (order of them). For each partition:
    sum   = sum |residual|                       (abs_residual_partition_sums)
    cnt   = N / P  (- order for partition 0)
    k     = smallest k >= 0 with cnt * 2^k >= sum, capped at 14 (4-bit Rice parameter, 15 = escape)
    bits  = 4 + (1 + k) * cnt + (k ? sum >> (k - 1) : sum << 1) - (cnt >> 1)
            (count_rice_bits_in_partition_)
The residual is laid out one row of N samples per subframe with the warm-up slots [0, order) zero.
Returns (sum, k, bits), each int32 [NB, P].
"""
import torch

META = {
    "name": "flac_rice_partition_estimate",
    "level": 2,
    "category": "audio",
    "dtypes": ["int32"],
    "tolerance": {"int32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"NB": 6, "N": 128, "p": 3},
        "ragged": {"NB": 7, "N": 192, "p": 2},
        "large": {"NB": 12920, "N": 4096, "p": 6},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over subframes; each step loads the whole "
                      "subframe as a [partitions, samples] tile (64 x 64 int32 = 16 KiB at the large size), "
                      "reduces |residual| along the contiguous axis, and computes the Rice parameters and "
                      "bit counts for all partitions as vectors (fp32 compares, exact below 2^24); three "
                      "vector stores per subframe; no autotune.",
    "deterministic": True,
}
MAX_ORDER = 12  # flac -8: max LPC order 12


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """residual int32 [NB, N] (warm-up slots zero), predictor order int32 [NB], partition order (int)."""
    s = META["sizes"][size]
    nb, n, p = s["NB"], s["N"], s["p"]
    parts = 1 << p
    g = torch.Generator().manual_seed(seed)
    # per-subframe loudness, per-partition variation, Laplacian residual
    scale = torch.exp(torch.empty(nb, 1, 1).uniform_(0.7, 8.0, generator=g))
    scale = scale * torch.exp(0.5 * torch.randn(nb, parts, 1, generator=g))
    mag = -torch.log(torch.rand(nb, parts, n // parts, generator=g).clamp_min(1e-12))
    sign = torch.where(torch.rand(nb, parts, n // parts, generator=g) < 0.5, -1.0, 1.0)
    res = torch.round(sign * mag * scale).clamp_(-32767, 32767).reshape(nb, n)
    order = torch.randint(1, MAX_ORDER + 1, (nb,), generator=g)
    res[torch.arange(n)[None, :] < order[:, None]] = 0
    return res.to(torch.int32).to(device), order.to(torch.int32).to(device), p


def reference(residual: torch.Tensor, order: torch.Tensor, partition_order: int) -> tuple:
    nb, n = residual.shape
    parts = 1 << partition_order
    ps = n // parts
    sums = residual.long().abs().reshape(nb, parts, ps).sum(-1)
    cnt = torch.full((nb, parts), ps, dtype=torch.int64, device=residual.device)
    cnt[:, 0] -= order.long()
    k = torch.zeros_like(sums)
    for kk in range(14):
        k += ((cnt << kk) < sums).long()
    coded = torch.where(k > 0, sums >> (k - 1).clamp(min=0), sums << 1)
    bits = 4 + (1 + k) * cnt + coded - (cnt >> 1)
    return sums.to(torch.int32), k.to(torch.int32), bits.to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    nb, n, p = s["NB"], s["N"], s["p"]
    return {"bytes": 4 * nb * n + 4 * nb + 12 * nb * (1 << p), "flops": 2 * nb * n + 60 * nb * (1 << p)}
