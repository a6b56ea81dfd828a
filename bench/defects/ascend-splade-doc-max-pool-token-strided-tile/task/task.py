"""SPLADE document term weights (naver/splade SpladeMaxPooling, SPLADE++ / splade-v3 doc encoder).

The MLM head gives logits [B, L, V] per document token; the sparse lexical weight of vocabulary
term v is w[b, v] = max over the document's valid tokens l < lengths[b] of log(1 + relu(logits)).
Documents are right-padded: token l of document b is valid when l < lengths[b]. Weights are fp32.
"""
import torch

META = {
    "name": "splade_doc_max_pool",
    "level": 2,
    "category": "reduction",
    "dtypes": ["bfloat16", "float16"],
    "tolerance": {"bfloat16": {"atol": 1e-5, "rtol": 1e-5},
                  "float16": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"B": 3, "L": 24, "V": 640},
        "ragged": {"B": 5, "L": 37, "V": 1000},
        "large": {"B": 32, "L": 256, "V": 30528},
    },
    "baseline_notes": "Persistent grid of 40 programs (the vector cores) looping over (document, 512-term "
                      "vocabulary tile) items; each item walks the document's valid tokens 8 at a time with "
                      "[8, 512] tiles whose vocabulary axis is contiguous, keeps a running elementwise max tile "
                      "of log(1 + relu(x)) in fp32 and reduces it over the token rows once per item.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """logits [B, L, V] (MLM head output, mostly negative, a few strong terms), lengths [B] int32."""
    s = META["sizes"][size]
    B, L, V = s["B"], s["L"], s["V"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    logits = torch.randn(B, L, V, generator=g) * 2.0 - 3.0
    lengths = torch.randint(L // 3, L + 1, (B,), generator=g)
    lengths[0] = L
    return logits.to(dt).to(device), lengths.to(torch.int32).to(device)


def reference(logits: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
    w = torch.log1p(torch.relu(logits.float()))
    valid = torch.arange(logits.shape[1], device=logits.device)[None, :] < lengths[:, None].long()
    w = w * valid[:, :, None]
    return w.amax(dim=1)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": s["B"] * s["L"] * s["V"] * item + 4 * s["B"] * s["V"] + 4 * s["B"],
            "flops": 3 * s["B"] * s["L"] * s["V"]}
