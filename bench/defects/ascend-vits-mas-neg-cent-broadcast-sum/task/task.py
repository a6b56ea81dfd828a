"""Monotonic alignment search costs of VITS (SynthesizerTrn.forward, before monotonic_align.maximum_path).

neg_cent[b, y, x] = sum_d [ -0.5 log(2 pi) - logs_p - 0.5 (z_p - m_p)^2 exp(-2 logs_p) ], the
Gaussian log-likelihood of every posterior frame y under every text-prior token x, written in
VITS as two matmuls over the channel axis plus two per-token sums.
"""
import math

import torch

META = {
    "name": "vits_mas_neg_cent",
    "level": 2,
    "category": "gemm",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 5e-2, "rtol": 2e-3}},
    "sizes": {
        "small": {"B": 2, "D": 24, "TY": 40, "TX": 20},
        "ragged": {"B": 3, "D": 20, "TY": 53, "TX": 27},
        "large": {"B": 64, "D": 192, "TY": 800, "TX": 301},
    },
    "baseline_notes": "CV kernel, persistent grid of 20 programs (Atlas A2 AI cores) over [64 frames, 64 tokens] "
                      "output tiles; per 32-channel step loads z_p [32, 64] and m_p/logs_p [32, 64] tiles "
                      "(contiguous time axis last), builds z^2, z, -0.5 exp(-2 logs), m exp(-2 logs) in fp32 and "
                      "accumulates two fp16 tl.dot (z tiles transposed on chip) in fp32, plus the per-token "
                      "sums; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """z_p [B, D, TY] (flow output on the spectrogram frames), m_p, logs_p [B, D, TX] (text prior)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    z_p = torch.randn(s["B"], s["D"], s["TY"], generator=g)
    m_p = torch.randn(s["B"], s["D"], s["TX"], generator=g) * 0.7
    logs_p = torch.randn(s["B"], s["D"], s["TX"], generator=g) * 0.2
    return z_p.to(dt).to(device), m_p.to(dt).to(device), logs_p.to(dt).to(device)


def reference(z_p: torch.Tensor, m_p: torch.Tensor, logs_p: torch.Tensor) -> torch.Tensor:
    z, m, logs = z_p.float(), m_p.float(), logs_p.float()
    s_p_sq_r = torch.exp(-2 * logs)
    neg_cent1 = torch.sum(-0.5 * math.log(2 * math.pi) - logs, [1], keepdim=True)
    neg_cent2 = torch.matmul(-0.5 * (z ** 2).transpose(1, 2), s_p_sq_r)
    neg_cent3 = torch.matmul(z.transpose(1, 2), m * s_p_sq_r)
    neg_cent4 = torch.sum(-0.5 * (m ** 2) * s_p_sq_r, [1], keepdim=True)
    return neg_cent1 + neg_cent2 + neg_cent3 + neg_cent4


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    B, D, TY, TX = s["B"], s["D"], s["TY"], s["TX"]
    return {"bytes": 2 * B * D * (TY + 2 * TX) + 4 * B * TY * TX, "flops": 4 * B * D * TY * TX}
