"""Parquet dictionary-encoded INT64 column decode (cuDF parquet reader, gpuDecodePageData dictionary path).

Each data page carries its dictionary indices as one bit-packed run of the RLE/bit-packed hybrid
(LSB first, `bit_width` bits per index, the page's stream starting at a 4-byte-aligned word and
followed by one padding word). Each row group (column chunk) has its own dictionary. The page
headers are one int32 row per page: (word_offset, num_values, bit_width, dict_offset, out_offset).
The decoded column is out[out_offset + j] = dictionary[dict_offset + index_j].
"""
import torch

META = {
    "name": "parquet_dict_decode_int64",
    "level": 2,
    "category": "decode",
    "dtypes": ["int64"],
    "tolerance": {"int64": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"RG": 2, "ROWS": 130, "PAGE_ROWS": 50, "DICT": (5, 40)},
        "ragged": {"RG": 3, "ROWS": 77, "PAGE_ROWS": 20, "DICT": (3, 300)},
        "large": {"RG": 32, "ROWS": 1048576, "PAGE_ROWS": 20000, "DICT": (20000, 100000)},
    },
    "baseline_notes": "One launch over a (page, chunk) grid, BLOCK = 1024 values per program: reads the page header, "
                      "unpacks each index from two adjacent 32-bit words, gathers the dictionary value and stores "
                      "it; 4 warps, no autotune.",
    "deterministic": True,
}


def _pages(size: str) -> list[tuple[int, int]]:
    """(row_group, num_values) for every page, row groups split into pages of PAGE_ROWS rows."""
    s = META["sizes"][size]
    out = []
    for rg in range(s["RG"]):
        for start in range(0, s["ROWS"], s["PAGE_ROWS"]):
            out.append((rg, min(s["PAGE_ROWS"], s["ROWS"] - start)))
    return out


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """words [W] int32 (bit-packed index streams), pages [P, 5] int32 (headers), dictionary [D] int64."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    lo, hi = s["DICT"]
    dict_sizes = torch.randint(lo, hi, (s["RG"],), generator=g)
    dict_offsets = torch.cumsum(dict_sizes, 0) - dict_sizes
    dictionary = torch.randint(-(1 << 40), 1 << 40, (int(dict_sizes.sum()),), generator=g)
    widths = [max(1, int(d - 1).bit_length()) for d in dict_sizes.tolist()]
    pages = _pages(size)
    headers, idx_all, bit_all, word_off, out_off = [], [], [], 0, 0
    for rg, n in pages:
        w = widths[rg]
        headers.append((word_off, n, w, int(dict_offsets[rg]), out_off))
        idx_all.append(torch.randint(0, int(dict_sizes[rg]), (n,), generator=g))
        bit_all.append(word_off * 32 + torch.arange(n) * w)
        word_off += (n * w + 31) // 32 + 1
        out_off += n
    idx = torch.cat(idx_all)
    bit = torch.cat(bit_all)
    words = torch.zeros(word_off, dtype=torch.int64)
    sh = bit & 31
    words.index_add_(0, bit >> 5, (idx << sh) & 0xFFFFFFFF)
    words.index_add_(0, (bit >> 5) + 1, idx >> (32 - sh))
    words = torch.where(words >= (1 << 31), words - (1 << 32), words).to(torch.int32)
    pages_t = torch.tensor(headers, dtype=torch.int32)
    return words.to(device), pages_t.to(device), dictionary.to(dt).to(device)


def reference(words: torch.Tensor, pages: torch.Tensor, dictionary: torch.Tensor) -> torch.Tensor:
    p = pages.long()
    n = p[:, 1]
    page = torch.repeat_interleave(torch.arange(p.shape[0], device=p.device), n)
    j = torch.arange(page.numel(), device=p.device) - torch.repeat_interleave(p[:, 4], n)
    width = p[page, 2]
    bit = j * width
    wi = p[page, 0] + (bit >> 5)
    w64 = words.long() & 0xFFFFFFFF
    packed = w64[wi] | (w64[wi + 1] << 32)
    idx = (packed >> (bit & 31)) & ((1 << width) - 1)
    out = torch.empty(page.numel(), dtype=dictionary.dtype, device=dictionary.device)
    out[p[page, 4] + j] = dictionary[p[page, 3] + idx]
    return out


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    rows = s["RG"] * s["ROWS"]
    bits = max(1, (s["DICT"][1] - 1).bit_length())
    return {"bytes": rows * 8 + rows * bits // 8 + rows * 8, "flops": 0}
