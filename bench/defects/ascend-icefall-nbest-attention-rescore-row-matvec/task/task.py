"""Attention-decoder rescoring of n-best lists (icefall conformer_ctc rescore_with_attention_decoder -> decoder_nll).

The n-best paths drawn from each utterance's HLG lattice are run through the transformer attention
decoder; decoder_nll then scores every token of every path with the decoder's output layer:
    logits[p, l, :] = hidden[p, l, :] @ weight^T + bias            (V = 500 BPE units)
    nll[p, l]       = logsumexp(logits[p, l, :]) - logits[p, l, ys_out[p, l]]
and 0 where ys_out is the ignore id -1 (padding after the path's eos). The path's attention score is
-nll.sum(1), combined with its AM and LM scores outside this kernel. This task fuses the output
layer, log-softmax and the target gather so the [paths, L+1, V] logits are never written.
"""
import torch

META = {
    "name": "nbest_attention_decoder_nll",
    "level": 2,
    "category": "matmul-softmax",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 2e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"P": 6, "L1": 5, "D": 64, "V": 300},
        "ragged": {"P": 7, "L1": 9, "D": 64, "V": 131},
        "large": {"P": 800, "L1": 48, "D": 512, "V": 500},
    },
    "baseline_notes": "20 programs (the A2's AI cores: the tl.dot runs on the cube, the rest on the vector "
                      "cores) loop over blocks of 64 token positions; per block the [64, D] hidden tile stays "
                      "on chip while the vocabulary is walked in [128, D] weight tiles: tl.dot(hidden, weight^T) "
                      "in fp32, bias added, online max / sum-exp over the vocabulary and the target logit picked "
                      "with an i32 == compare; one nll store per block; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """hidden [P, L1, D], weight [V, D], bias [V] (the decoder's output layer), ys_out int32 [P, L1] (-1 = ignore)."""
    s = META["sizes"][size]
    P, L1, D, V = s["P"], s["L1"], s["D"], s["V"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    hidden = torch.randn(P, L1, D, generator=g)
    weight = torch.randn(V, D, generator=g) * (4.0 / D ** 0.5)
    bias = torch.randn(V, generator=g) * 0.5
    lens = torch.randint(max(1, L1 // 3), L1 + 1, (P,), generator=g)
    ys = torch.randint(1, V - 1, (P, L1), generator=g)
    pos = torch.arange(L1)[None, :]
    ys = torch.where(pos == lens[:, None] - 1, torch.full_like(ys, V - 1), ys)   # eos closes each path
    ys = torch.where(pos >= lens[:, None], torch.full_like(ys, -1), ys)          # ignore_id padding
    return (hidden.to(dt).to(device), weight.to(dt).to(device), bias.to(dt).to(device),
            ys.to(torch.int32).to(device))


def reference(hidden: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, ys_out: torch.Tensor) -> torch.Tensor:
    logits = hidden.double() @ weight.double().T + bias.double()
    logp = torch.log_softmax(logits, dim=-1)
    tgt = ys_out.long()
    nll = -logp.gather(-1, tgt.clamp(min=0)[..., None])[..., 0]
    return torch.where(tgt >= 0, nll, torch.zeros_like(nll)).to(torch.float32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    R = s["P"] * s["L1"]
    return {"bytes": 2 * R * s["D"] + 2 * s["V"] * (s["D"] + 1) + 8 * R, "flops": 2 * R * s["V"] * s["D"]}
