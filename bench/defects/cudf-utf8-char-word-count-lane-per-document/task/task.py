"""Per-document character and word counts of UTF-8 text (cuDF strings::count_characters and nvtext::count_tokens).

Documents are a cuDF strings column (uint8 chars + int32 offsets). Characters are UTF-8 code points
(bytes that are not continuation bytes 10xxxxxx); words are maximal runs of bytes > 0x20 (cuDF's
default whitespace delimiter). These are the inputs of the word-count and mean-word-length
heuristic filters of NeMo-Curator / Gopher-style quality filtering. Output: (n_chars, n_words), int32 [D].
"""
import torch

META = {
    "name": "utf8_char_word_count",
    "level": 2,
    "category": "text",
    "dtypes": ["uint8"],
    "tolerance": {"uint8": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"D": 6, "L": 300},
        "ragged": {"D": 133, "L": 1111},
        "large": {"D": 32768, "L": 8192},
    },
    "baseline_notes": "One program per document looping over its bytes in tiles of 2048: loads the uint8 bytes and the "
                      "byte before each one, counts non-continuation bytes and whitespace-to-non-whitespace "
                      "transitions in int32 registers, two int32 stores; 4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """chars uint8 [total bytes] (valid UTF-8: mostly ASCII words, some 2-, 3- and 4-byte characters), offsets int32 [D + 1]."""
    s = META["sizes"][size]
    D, L = s["D"], s["L"]
    g = torch.Generator().manual_seed(seed)
    n_cp = torch.randint(L // 16, L + 1, (D,), generator=g)
    n_cp[0] = L
    T = int(n_cp.sum())
    u = torch.rand(T, generator=g)
    width = (1 + (u > 0.90).to(torch.int8) + (u > 0.97).to(torch.int8) + (u > 0.995).to(torch.int8))
    del u
    cp_end = torch.cumsum(width, 0, dtype=torch.int32)
    ascii_set = torch.tensor(list(b"abcdefghijklmnopqrstuvwxyzetaoinshr      \n.,'"), dtype=torch.uint8)
    pick = torch.randint(0, 256, (T,), generator=g, dtype=torch.uint8)
    lead = ascii_set[(pick % len(ascii_set)).long()]
    lead = torch.where(width == 2, 0xC3 + pick % 17, lead)          # U+00C0..U+04FF
    lead = torch.where(width == 3, 0xE3 + pick % 7, lead)           # CJK and friends
    lead = torch.where(width == 4, torch.full_like(lead, 0xF0), lead)  # emoji plane
    chars = torch.randint(0x90, 0xC0, (int(cp_end[-1]),), generator=g, dtype=torch.uint8)
    chars[(cp_end - width).long()] = lead
    doc_end_cp = torch.cumsum(n_cp, 0)
    byte_end = cp_end[doc_end_cp - 1]
    offsets = torch.zeros(D + 1, dtype=torch.int32)
    offsets[1:] = byte_end.to(torch.int32)
    return chars.to(device), offsets.to(device)


def reference(chars: torch.Tensor, offsets: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    off = offsets.long()
    D = off.numel() - 1
    b = chars.long()
    doc = torch.repeat_interleave(torch.arange(D, device=chars.device), off[1:] - off[:-1])
    is_cp = ((b & 0xC0) != 0x80).long()
    ws = b <= 0x20
    prev_ws = torch.cat([torch.ones(1, dtype=torch.bool, device=chars.device), ws[:-1]])
    prev_ws[off[:-1][off[:-1] < b.numel()]] = True
    starts = (~ws & prev_ws).long()
    n_chars = torch.zeros(D, dtype=torch.long, device=chars.device).index_add_(0, doc, is_cp)
    n_words = torch.zeros(D, dtype=torch.long, device=chars.device).index_add_(0, doc, starts)
    return n_chars.to(torch.int32), n_words.to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    total = int(s["D"] * (s["L"] + s["L"] // 16) / 2 * 1.14)
    return {"bytes": total + 4 * (s["D"] + 1) + 8 * s["D"], "flops": 6 * total}
