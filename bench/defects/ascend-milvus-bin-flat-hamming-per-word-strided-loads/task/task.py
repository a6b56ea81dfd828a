"""Binary Hamming distances of one query against a segment of binary codes (Milvus BIN_FLAT, metric HAMMING).

Each code is a 512-bit binary vector stored as 16 int32 words (Milvus keeps dim / 8 bytes per
vector; the words are the same bytes reinterpreted). dist[n] = popcount(query XOR code[n]).
"""
import torch

META = {
    "name": "binary_hamming_scan",
    "level": 2,
    "category": "retrieval",
    "dtypes": ["int32"],
    "tolerance": {"int32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"n": 3000, "words": 16},
        "ragged": {"n": 5111, "words": 16},
        "large": {"n": 8388608, "words": 16},
    },
    "baseline_notes": "Persistent grid of 40 programs (vector cores) looping over blocks of 256 codes: each "
                      "block is loaded as one contiguous [256, 16] int32 tile, XORed with the query words, "
                      "SWAR popcount per word, summed along the words axis.",
    "deterministic": True,
}

_POPCOUNT8 = torch.tensor([bin(i).count("1") for i in range(256)], dtype=torch.int32)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """query [words] int32, codes [n, words] int32 (random bits)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    n, w = s["n"], s["words"]
    codes = torch.randint(-2**31, 2**31 - 1, (n, w), generator=g, dtype=torch.int64).to(torch.int32)
    query = codes[int(torch.randint(0, n, (1,), generator=g))].clone()
    query ^= torch.randint(-2**31, 2**31 - 1, (w,), generator=g, dtype=torch.int64).to(torch.int32) & 0x01010101
    return query.to(device), codes.to(device)


def reference(query: torch.Tensor, codes: torch.Tensor) -> torch.Tensor:
    x = torch.bitwise_xor(codes, query[None, :]).contiguous().view(torch.uint8)
    return _POPCOUNT8.to(x.device)[x.long()].sum(1).to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n, w = s["n"], s["words"]
    return {"bytes": 4 * (n * w + w + n), "flops": 14 * n * w}
