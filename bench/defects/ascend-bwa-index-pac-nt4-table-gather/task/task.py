"""2-bit packing of a reference sequence, the .pac file of `bwa index` (bns_fasta2bntseq).

The FASTA text of a contig (ASCII, soft-masked repeats in lower case, runs of N) is turned into
nucleotide codes with BWA's nst_nt4_table (A/a -> 0, C/c -> 1, G/g -> 2, T/t -> 3, anything
else -> 4) and packed four bases per byte, the first base in the high bits:
    pac[l >> 2] |= (c & 3) << ((~l & 3) << 1)
BWA draws a random base for every ambiguous position (and records it as a hole in .amb); here
an ambiguous base is written as code 0 (A) so that the output is deterministic. The loader pads
each contig with N to a multiple of 4 bases, so N % 4 == 0 and the output has N / 4 bytes.
"""
import torch

META = {
    "name": "bwa_pac_pack",
    "level": 1,
    "category": "genomics",
    "dtypes": ["uint8"],
    "tolerance": {"uint8": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"N": 1024},
        "ragged": {"N": 4 * 1237},
        "large": {"N": 248_956_424},  # GRCh38 chr1 (248,956,422 bp) padded to a multiple of 4
    },
    "baseline_notes": "The ASCII text is read as int32 words (4 bases each, little endian); 40 programs "
                      "(the A2's vector cores) loop over blocks of 8192 words: every byte of a word is "
                      "mapped to its 2-bit code with compares and selects on the vector unit, the four "
                      "codes are shifted into one byte and stored contiguously; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """seq uint8 [N]: FASTA text of one contig (ACGT, ~half soft-masked lower case, N runs)."""
    n = META["sizes"][size]["N"]
    g = torch.Generator().manual_seed(seed)
    alphabet = torch.tensor(list(b"ACGTacgt"), dtype=torch.uint8)
    seq = alphabet[torch.randint(0, 8, (n,), generator=g)]
    # ambiguity: a leading N run (telomere gap), a few inner gaps and scattered IUPAC codes
    seq[: max(4, n // 100)] = ord("N")
    for _ in range(3):
        start = int(torch.randint(0, n - 8, (1,), generator=g))
        seq[start:start + 1 + n // 200] = ord("N")
    scattered = torch.randint(0, n, (max(1, n // 500),), generator=g)
    iupac = torch.tensor(list(b"NRYKMSWn"), dtype=torch.uint8)
    seq[scattered] = iupac[torch.randint(0, 8, (scattered.numel(),), generator=g)]
    return (seq.to(device),)


def reference(seq: torch.Tensor) -> torch.Tensor:
    table = torch.full((256,), 4, dtype=torch.int64)
    for ch, code in zip(b"ACGT", range(4)):
        table[ch] = code
        table[ch + 32] = code
    codes = table.to(seq.device)[seq.long()] & 3
    codes = codes.view(-1, 4)
    packed = (codes[:, 0] << 6) | (codes[:, 1] << 4) | (codes[:, 2] << 2) | codes[:, 3]
    return packed.to(torch.uint8)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    return {"bytes": n + n // 4, "flops": 0}
