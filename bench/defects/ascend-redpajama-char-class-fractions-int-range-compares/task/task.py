"""Character-class fractions per document, the byte-level quality signals of RedPajama-V2 / Dolma taggers.

Each document d is UTF-8 text stored as bytes text[d, :lengths[d]] (zero padding after). Per document the
kernel returns six fractions of its bytes (lengths[d] >= 1):
    0 alpha      [A-Za-z]                       (Gopher / RPv2 "no alpha" heuristics)
    1 upper      [A-Z]                          (all-caps / uppercase ratio)
    2 digit      [0-9]                          (digit ratio)
    3 whitespace [\\t\\n\\v\\f\\r ] (9..13, 32)        (whitespace ratio, str.isspace on ASCII)
    4 curly      '{' or '}'                     (rps_doc_curly_bracket: code / boilerplate marker)
    5 non-ascii  byte >= 128                    (UTF-8 lead and continuation bytes)
out[d, k] = count_k / lengths[d], fp32 [D, 6].
"""
import torch

META = {
    "name": "char_class_fractions",
    "level": 2,
    "category": "text-statistics",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-5}},
    "sizes": {
        "small": {"D": 5, "L": 3000},
        "ragged": {"D": 7, "L": 4321},
        "large": {"D": 4096, "L": 16384},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over documents and over 4096-byte tiles "
                      "up to the document's length; bytes are widened to fp32 once and classified with "
                      "float range compares (integer compares other than i32 ==/!= are not vector ops "
                      "on the A2), six per-tile sums, six scalar stores per document; no autotune.",
    "deterministic": True,
}

_CLASSES = (
    (b"abcdefghijklmnopqrstuvwxyz", 40.0),
    (b"ABCDEFGHIJKLMNOPQRSTUVWXYZ", 3.0),
    (b"0123456789", 2.0),
    (b" ", 15.0),
    (b"\n", 1.5),
    (b"\t\r", 0.2),
    (b".,;:!?'\"-()[]/&%#@*+=<>_|", 3.0),
    (b"{}", 0.15),
)


def _byte_weights() -> torch.Tensor:
    w = torch.zeros(256)
    for chars, total in _CLASSES:
        for c in chars:
            w[c] += total / len(chars)
    w[128:] += 4.0 / 128  # multi-byte UTF-8 sequences
    w[1:9] += 0.01 / 8    # stray control bytes
    return w


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """text uint8 [D, L] (zero padded), lengths int32 [D] in [L/8, L]."""
    s = META["sizes"][size]
    d, width = s["D"], s["L"]
    g = torch.Generator().manual_seed(seed)
    lengths = torch.randint(max(1, width // 8), width + 1, (d,), generator=g, dtype=torch.int64)
    # per-document mix: prose-heavy, code-heavy (more braces and symbols) or non-English (more UTF-8)
    base = _byte_weights()
    rows = []
    for i in range(d):
        w = base.clone()
        kind = int(torch.randint(0, 3, (1,), generator=g))
        if kind == 1:
            w[ord("{")] += 1.5
            w[ord("}")] += 1.5
            w[ord(";")] += 1.0
        elif kind == 2:
            w[128:] += 30.0 / 128
        rows.append(torch.multinomial(w / w.sum(), width, replacement=True, generator=g))
    text = torch.stack(rows).to(torch.uint8)
    text = text.masked_fill(torch.arange(width)[None, :] >= lengths[:, None], 0)
    return text.to(device), lengths.to(torch.int32).to(device)


def reference(text: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
    c = text.long()
    valid = torch.arange(text.shape[1], device=text.device)[None, :] < lengths.long()[:, None]
    upper = (c >= 65) & (c <= 90)
    lower = (c >= 97) & (c <= 122)
    classes = [
        upper | lower,
        upper,
        (c >= 48) & (c <= 57),
        ((c >= 9) & (c <= 13)) | (c == 32),
        (c == 123) | (c == 125),
        c >= 128,
    ]
    counts = torch.stack([(k & valid).sum(dim=1) for k in classes], dim=1).double()
    return (counts / lengths.double()[:, None]).to(torch.float32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": s["D"] * s["L"] * 9 // 16 + 28 * s["D"], "flops": 20 * s["D"] * s["L"] * 9 // 16}
