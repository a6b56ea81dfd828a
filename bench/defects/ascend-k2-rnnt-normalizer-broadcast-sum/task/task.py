"""Log-normalizers of k2's simple (trivial-joiner) RNN-T loss, `k2.get_rnnt_logprobs` / `rnnt_loss_simple`.

icefall's pruned transducer recipes first train with the "simple" joiner, whose logits for encoder frame t
and decoder (label-context) position s are lm[b, s, :] + am[b, t, :]. Every (s, t) cell of the lattice needs
the log-partition of that sum over the vocabulary,
    normalizer[b, s, t] = log sum_c exp(lm[b, s, c] + am[b, t, c]),
from which px / py (symbol and blank log-probs) are taken. k2 computes it as a matrix product of the two
max-shifted exponentials:
    normalizer = log(exp(lm - lm_max) @ exp(am - am_max)^T + tiny) + lm_max + am_max^T.
Inputs: am [B, T, C] (simple_am_proj of the encoder output), lm [B, S + 1, C] (simple_lm_proj of the
stateless decoder output); output normalizers [B, S + 1, T] fp32.
"""
import torch

META = {
    "name": "rnnt_simple_normalizers",
    "level": 2,
    "category": "speech",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-3, "rtol": 2e-4}},
    "sizes": {
        "small": {"B": 2, "T": 37, "S1": 21, "C": 50},
        "ragged": {"B": 3, "T": 45, "S1": 23, "C": 77},
        "large": {"B": 64, "T": 500, "S1": 128, "C": 500},
    },
    "baseline_notes": "20 programs (the A2's AI cores; the kernel mixes cube and vector) loop over "
                      "(utterance, 64 label positions, 64 frames) tiles: a first pass over the vocabulary "
                      "in 128-wide chunks takes the row maxes of lm and am, a second pass exponentiates the "
                      "shifted chunks and accumulates exp(lm) @ exp(am)^T with tl.dot into a [64, 64] fp32 "
                      "tile; log + both maxes, one store per tile; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """am [B, T, C] and lm [B, S + 1, C]: logit-scale projections of encoder and decoder outputs."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    am = torch.randn(s["B"], s["T"], s["C"], generator=g) * 2.0
    lm = torch.randn(s["B"], s["S1"], s["C"], generator=g) * 1.5
    return am.to(dt).to(device), lm.to(dt).to(device)


def reference(am: torch.Tensor, lm: torch.Tensor) -> torch.Tensor:
    a, l = am.double(), lm.double()
    a_max = a.amax(dim=2, keepdim=True)
    l_max = l.amax(dim=2, keepdim=True)
    prod = torch.matmul((l - l_max).exp(), (a - a_max).exp().transpose(1, 2))
    return (prod.log() + l_max + a_max.transpose(1, 2)).to(am.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    B, T, S1, C = s["B"], s["T"], s["S1"], s["C"]
    return {"bytes": 4 * (B * T * C + B * S1 * C + B * S1 * T), "flops": 2 * B * S1 * T * C}
