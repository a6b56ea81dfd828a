"""HMMER 3 MSV filter (p7_MSVFilter, the 8-bit multiple-segment Viterbi first stage of hmmsearch).

One profile HMM of M match nodes against a batch of target sequences, all in HMMER's unsigned-byte
arithmetic: emission costs cost[k, x] = bias - round(scale_b * e_k(x)) (saturated to 255; scale_b = 3/ln 2,
third-bits), base = 190, constant B->Mk entry cost tbm, E->J/E->C cost tec and the per-target length
dependent N/J/C->B cost tjb (p7_oprofile_ReconfigMSVLength, computed by the caller). For each residue x_i:

    xBv    = max(xB - tbm, 0)
    M(i,k) = max(max(M(i-1,k-1), xBv) + bias (sat. 255) - cost[k, x_i], 0)
    xE     = max_k M(i,k);   overflow when xE >= 255 - bias  (score +inf: the target passes)
    xJ     = max(xJ, xE - tec);   xB = max(base, xJ) - tjb

starting from M = 0 (-inf), xJ = 0, xB = base - tjb; the filter score in nats is
((xJ - tjb) - base) / scale_b - 3.0. The batch is one bin of a length-sorted sequence database
(GPU HMMER ports bin targets by length): residues concatenated (dsq, uint8 codes 0..19), offsets and
lengths int32 [N] sorted by decreasing length. Output: fp32 [N] scores (+inf on overflow).
"""
import math

import torch

META = {
    "name": "hmmer_msv_filter",
    "level": 3,
    "category": "bioinformatics",
    "dtypes": ["uint8"],
    "tolerance": {"uint8": {"atol": 1e-4, "rtol": 1e-5}},
    "sizes": {
        "small": {"M": 20, "N": 40, "Lmin": 12, "Lmax": 22, "homologs": 0.3},
        "ragged": {"M": 21, "N": 45, "Lmin": 9, "Lmax": 23, "homologs": 0.3},
        "large": {"M": 200, "N": 65536, "Lmin": 256, "Lmax": 511, "homologs": 0.03},
    },
    "baseline_notes": "Inter-sequence parallel MSV (one lane per target, 128 targets per program, 4 warps): "
                      "each lane walks its residues and, per residue, the M nodes with the byte "
                      "recurrence, keeping the previous DP row in a uint8 global scratch laid out node-major "
                      "([M, N], so the 128 lanes of a program touch 128 consecutive bytes per node); the "
                      "emission cost table is node-major [M, 32] so a node's costs share one sector. "
                      "No autotune.",
    "deterministic": True,
}
BASE = 190
ALPHA_PAD = 32
BACKGROUND = [0.07805, 0.05129, 0.04487, 0.05364, 0.01925, 0.04264, 0.06295, 0.07377, 0.02199, 0.05142,
              0.09019, 0.05744, 0.02243, 0.03856, 0.05203, 0.07120, 0.05841, 0.01330, 0.03216, 0.06441]


def _byte(sc: torch.Tensor | float) -> torch.Tensor:
    """HMMER's unbiased_byteify: cost = -round(scale_b * sc), saturated to [0, 255]."""
    scale_b = 3.0 / math.log(2.0)
    return torch.clamp(-torch.round(torch.as_tensor(sc, dtype=torch.float64) * scale_b), 0, 255).to(torch.int64)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """cost uint8 [M, 32], dsq uint8 [sum L], offsets int32 [N], lengths int32 [N], tjb uint8 [N],
    bias, tbm, tec (ints), scale_b (float)."""
    s = META["sizes"][size]
    m, n = s["M"], s["N"]
    g = torch.Generator().manual_seed(seed)
    f = torch.tensor(BACKGROUND, dtype=torch.float64)
    f = f / f.sum()
    # match emissions: a consensus residue per node, Dirichlet-like spread, mixed with the background
    gam = torch._standard_gamma((0.3 * 20.0 * f).expand(m, 20).contiguous(), generator=g)
    p = 0.75 * gam / gam.sum(1, keepdim=True) + 0.25 * f
    e = torch.log(p / f)  # nats
    scale_b = 3.0 / math.log(2.0)
    bias = int(_byte(-e.max()))
    cost = torch.full((m, ALPHA_PAD), 255, dtype=torch.int64)
    cost[:, :20] = torch.clamp(bias - torch.round(scale_b * e).to(torch.int64), 0, 255)
    tbm = int(_byte(math.log(2.0 / (m * (m + 1)))))
    tec = int(_byte(math.log(0.5)))
    # one length bin of a length-sorted database, longest first
    lengths = torch.randint(s["Lmin"], s["Lmax"] + 1, (n,), generator=g).sort(descending=True).values
    offsets = torch.cumsum(lengths, 0) - lengths
    total = int(lengths.sum())
    lut = torch.searchsorted(torch.cumsum(f, 0), (torch.arange(4096, dtype=torch.float64) + 0.5) / 4096).clamp(max=19)
    dsq = lut[torch.randint(0, 4096, (total,), generator=g)]
    # a few true homologs: a stretch emitted by the profile itself
    cdf = torch.cumsum(p, 1)
    for t in torch.nonzero(torch.rand(n, generator=g) < s["homologs"]).flatten().tolist():
        seg = min(int(lengths[t]), m, 50)
        k0 = int(torch.randint(0, m - seg + 1, (1,), generator=g))
        i0 = int(offsets[t]) + int(torch.randint(0, int(lengths[t]) - seg + 1, (1,), generator=g))
        u = torch.rand(seg, 1, generator=g, dtype=torch.float64)
        dsq[i0:i0 + seg] = (u > cdf[k0:k0 + seg]).sum(1).clamp(max=19)
    tjb = _byte(torch.log(3.0 / (lengths.double() + 3.0)))
    u8 = dict(dtype=torch.uint8, device=device)
    i32 = dict(dtype=torch.int32, device=device)
    return (cost.to(**u8), dsq.to(**u8), offsets.to(**i32), lengths.to(**i32), tjb.to(**u8),
            bias, tbm, tec, scale_b)


def reference(cost, dsq, offsets, lengths, tjb, bias, tbm, tec, scale_b) -> torch.Tensor:
    n = lengths.shape[0]
    m = cost.shape[0]
    dev = dsq.device
    c_by_residue = cost.long().T.contiguous()  # [32, M]
    L = lengths.long()
    off = offsets.long()
    tj = tjb.long()
    dp = torch.zeros(n, m, dtype=torch.int64, device=dev)
    xJ = torch.zeros(n, dtype=torch.int64, device=dev)
    xB = BASE - tj
    over = torch.zeros(n, dtype=torch.bool, device=dev)
    zero_col = torch.zeros(n, 1, dtype=torch.int64, device=dev)
    for i in range(int(L.max())):
        act = i < L
        x = dsq[off + torch.minimum(L - 1, torch.full_like(L, i))].long()
        xbv = torch.clamp(xB - tbm, min=0)
        mp = torch.cat([zero_col, dp[:, :-1]], dim=1)
        sv = torch.maximum(mp, xbv[:, None])
        sv = torch.clamp(sv + bias, max=255)
        sv = torch.clamp(sv - c_by_residue[x], min=0)
        xE = sv.max(dim=1).values
        dp = torch.where(act[:, None], sv, dp)
        over |= act & (xE >= 255 - bias)
        xJ = torch.where(act, torch.maximum(xJ, xE - tec), xJ)
        xB = torch.where(act, torch.clamp(xJ, min=BASE) - tj, xB)
    sc = (xJ - tj - BASE).to(torch.float32) / scale_b - 3.0
    return torch.where(over, torch.full_like(sc, float("inf")), sc)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    cells = s["N"] * (s["Lmin"] + s["Lmax"]) // 2 * s["M"]
    return {"bytes": s["N"] * (s["Lmin"] + s["Lmax"]) // 2 + 13 * s["N"] + 32 * s["M"], "flops": 6 * cells}
