"""FSE_normalizeCount (zstd lib/compress/fse_compress.c) for the match-length codes of every block of a job.

For each compressed block zstd histograms its sequences' match-length codes (MaxML + 1 = 53 symbols),
picks tableLog = FSE_optimalTableLog(MLFSELog = 9, nbSeq, 52) and scales the counts to a distribution
summing to 2^tableLog (ZSTD_buildCTable -> FSE_normalizeCount, useLowProbCount = total >= 2048):

    total = sum(count);  scale = 62 - tableLog;  step = floor(2^62 / total);  vStep = 2^(scale - 20)
    lowThreshold = total >> tableLog;  lowProbCount = -1 if total >= 2048 else 1
    count == 0                 -> norm = 0
    count <= lowThreshold      -> norm = lowProbCount            (takes one table slot)
    otherwise                  -> p = (count * step) >> scale;
                                  if p < 8: p += (count * step - (p << scale)) > vStep * rtbTable[p]
                                  norm = p
    stillToDistribute = 2^tableLog - (#low-probability symbols) - sum(p)
    norm[largest] += stillToDistribute, largest = first symbol with the largest p

A block whose sequences all share one code (count == total, the RLE case) returns an all-zero row.
The inputs never reach FSE_normalizeM2 (the fallback when -stillToDistribute >= norm[largest] / 2),
which this op does not model. Returns norm int16 [blocks, 53].
"""
import torch

META = {
    "name": "zstd_fse_normalize_count",
    "level": 1,
    "category": "entropy-coding",
    "dtypes": ["int32"],
    "tolerance": {"int32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"blocks": 6},
        "ragged": {"blocks": 11},
        "large": {"blocks": 4096},
    },
    "baseline_notes": "One launch over all blocks: program b loads block b's 53 counts (padded to 64 lanes), "
                      "sums them, and computes the normalised counts, the low-probability slots and the "
                      "largest symbol's remainder in int64 lane arithmetic; 1 warp, no autotune.",
    "deterministic": True,
}
MAX_ML = 52
ML_FSE_LOG = 9
RTB = (0, 473195, 504333, 520860, 550000, 700000, 750000, 830000)


def _highbit(v: int) -> int:
    return v.bit_length() - 1


def _optimal_table_log(max_log: int, n: int, max_sym: int) -> int:
    """FSE_optimalTableLog: accuracy bounded by the source size, at least enough bits for the symbols."""
    log = min(max_log, _highbit(n - 1) - 2)
    log = max(log, min(_highbit(n) + 1, _highbit(max_sym) + 2))
    return min(max(log, 5), 12)


def _draw(nb: int, g: torch.Generator) -> tuple:
    code = torch.arange(MAX_ML + 1, dtype=torch.float64)
    decay = 2.0 + 6.0 * torch.rand(nb, 1, generator=g, dtype=torch.float64)
    p = torch.exp(-code[None, :] / decay) + 0.002 * torch.exp(-(code[None, :] - 32.0).clamp(min=0) / 4.0)
    p = p * (0.25 + torch.rand(nb, MAX_ML + 1, generator=g, dtype=torch.float64))
    n_seq = torch.randint(300, 12001, (nb,), generator=g)
    draws = torch.multinomial(p.float(), int(n_seq.max()), replacement=True, generator=g)
    keep = torch.arange(draws.shape[1])[None, :] < n_seq[:, None]
    count = torch.zeros(nb, MAX_ML + 1, dtype=torch.int64).scatter_add_(1, draws, keep.long())
    table_log = torch.tensor([_optimal_table_log(ML_FSE_LOG, int(n), MAX_ML) for n in n_seq])
    return count, table_log


def _primary(c: torch.Tensor, log: torch.Tensor) -> tuple:
    """FSE_normalizeCount's main pass: (norm before the remainder, stillToDistribute, largest)."""
    total = c.sum(dim=1, keepdim=True)
    scale = 62 - log
    step = (1 << 62) // total
    v_step = torch.ones_like(scale) << (scale - 20)
    low = c <= (total >> log)
    low_prob = torch.where(total >= 2048, -1, 1)
    prod = c * step
    p = prod >> scale
    rtb = torch.tensor(RTB, dtype=torch.long, device=c.device)[p.clamp(max=7)]
    p = p + ((p < 8) & (prod - (p << scale) > v_step * rtb)).long()
    regular = (c > 0) & ~low
    norm = torch.where(regular, p, torch.where(c > 0, low_prob, torch.zeros_like(p)))
    still = (torch.ones_like(log) << log) - ((c > 0) & low).sum(1, keepdim=True) \
        - torch.where(regular, p, 0).sum(1, keepdim=True)
    largest = torch.where(regular, p, -1).argmax(dim=1, keepdim=True)  # first index of the max
    return norm, still, largest


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """count int32 [blocks, 53]: match-length code histograms of blocks holding 300..12,000 sequences
    (short matches common, a geometric tail of long-match codes), redrawn where zstd would need
    FSE_normalizeM2; table_log int32 [blocks] from FSE_optimalTableLog."""
    nb = META["sizes"][size]["blocks"]
    g = torch.Generator().manual_seed(seed)
    count, table_log = _draw(nb, g)
    while True:
        norm, still, largest = _primary(count, table_log.long()[:, None])
        bad = (-still >= norm.gather(1, largest) >> 1).reshape(-1).nonzero().reshape(-1)
        if bad.numel() == 0:
            break
        count[bad], table_log[bad] = _draw(bad.numel(), g)
    return count.to(torch.int32).to(device), table_log.to(torch.int32).to(device)


def reference(count: torch.Tensor, table_log: torch.Tensor) -> torch.Tensor:
    c = count.long()
    norm, still, largest = _primary(c, table_log.long()[:, None])
    norm = norm.scatter_add(1, largest, still)
    rle = (c == c.sum(dim=1, keepdim=True)).any(dim=1, keepdim=True)
    return torch.where(rle, torch.zeros_like(norm), norm).to(torch.int16)


def cost(size: str, dtype: str | None = None) -> dict:
    nb = META["sizes"][size]["blocks"]
    return {"bytes": nb * (MAX_ML + 1) * 6 + 4 * nb, "flops": 12 * nb * (MAX_ML + 1)}
