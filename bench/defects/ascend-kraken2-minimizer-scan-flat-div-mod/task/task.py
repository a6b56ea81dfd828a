"""Kraken 2 minimizer scan of a batch of reads (MinimizerScanner, DNA, k = 31, l = 15, no spaced seed).

For every k-mer start p of a read (bases coded A=0 C=1 G=2 T=3, N=4), Kraken 2 looks up one
minimizer: among the w = k - l + 1 = 17 l-mers inside the k-mer, the canonical l-mer
(min of the 2-bit forward code and its reverse complement) whose value XOR the toggle mask
(0xe37e28c4271b5a2d & lmer_mask = 0x271B5A2D for l = 15) is smallest. The result is that canonical
l-mer (un-toggled), the key probed in the compact hash table; k-mers that contain an ambiguous base
(N) give -1 and are not looked up. l = 15 gives 30-bit l-mers (the Kraken 1 / KrakenUniq geometry
k = 31, l = 15, which Kraken 2 builds with -k 31 -l 15 -s 0).

Returns minimizers [R, L - k + 1] int32.
"""
import torch

KMER = 31
LMER = 15
TOGGLE = 0xE37E28C4271B5A2D & ((1 << (2 * LMER)) - 1)

META = {
    "name": "kraken2_minimizer_scan",
    "level": 2,
    "category": "genomics",
    "dtypes": ["int8"],
    "tolerance": {"int8": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"R": 6, "L": 60},
        "ragged": {"R": 7, "L": 77},
        "large": {"R": 65536, "L": 150},
    },
    "baseline_notes": "40 programs (the 910B4's vector cores) loop over tiles of 16 reads x 128 k-mer starts "
                      "(the whole read, P = L - k + 1 = 120 masked to 128); per tile k = 31 shifted int8 loads of "
                      "the [16, 128] window: the first 15 build the forward / reverse-complement l-mer, each "
                      "further base rolls both by one base and folds min(canonical ^ toggle) into the running "
                      "minimum; ambiguous bases are or-ed into a flag. No autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """reads [R, L] int8 base codes (0..3, 4 = N), ~0.2% N plus a run of three N in every 8th read."""
    s = META["sizes"][size]
    R, L = s["R"], s["L"]
    g = torch.Generator().manual_seed(seed)
    reads = torch.randint(0, 4, (R, L), generator=g)
    reads[torch.rand(R, L, generator=g) < 0.002] = 4
    reads[::8, L // 2:L // 2 + 3] = 4
    reads[1::4, 3:3 + LMER] = 0                                   # poly-A stretch
    return (reads.to(torch.int8).to(device),)


def reference(reads: torch.Tensor) -> torch.Tensor:
    R, L = reads.shape
    P = L - KMER + 1
    b = reads.cpu().long()
    amb_base = b >= 4
    c = b & 3
    lw = c.unfold(1, LMER, 1)                                      # [R, L - l + 1, l]
    shifts = 2 * torch.arange(LMER - 1, -1, -1)
    fwd = (lw << shifts).sum(-1)
    rc = ((3 - lw) << (2 * torch.arange(LMER))).sum(-1)
    canon = torch.minimum(fwd, rc)
    key = (canon ^ TOGGLE).unfold(1, KMER - LMER + 1, 1)           # [R, P, w]
    mini = key.min(-1).values ^ TOGGLE
    amb = amb_base.unfold(1, KMER, 1).any(-1)                       # [R, P]
    out = torch.where(amb, torch.full_like(mini, -1), mini)
    assert out.shape == (R, P)
    return out.to(torch.int32).to(reads.device)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    R, L = s["R"], s["L"]
    P = L - KMER + 1
    return {"bytes": R * L + 4 * R * P, "flops": 260 * R * P}
