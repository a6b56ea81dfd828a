"""Merge two partial attention results by their log-sum-exps (vLLM merge_attn_states, cascade / chunked-prefill attention): out [T, H, D] from (prefix_out, prefix_lse) and (suffix_out, suffix_lse), lse laid out [H, T]."""
import torch

META = {
    "name": "merge_attn_states",
    "level": 2,
    "category": "attention",
    "dtypes": ["float16", "bfloat16"],
    "tolerance": {"float16": {"atol": 2e-3, "rtol": 2e-3}, "bfloat16": {"atol": 1e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"T": 40, "H": 4, "D": 64},
        "ragged": {"T": 1531, "H": 12, "D": 80},
        "large": {"T": 16384, "H": 32, "D": 128},
    },
    "baseline_notes": "One program per token: a [H, D] tile of each output and the two [H] lse columns, "
                      "fp32 weights, one store; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """prefix_out, suffix_out [T, H, D] of normals; prefix_lse, suffix_lse [H, T] fp32 around 5."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    p_out = torch.randn(s["T"], s["H"], s["D"], generator=g).to(dt)
    s_out = torch.randn(s["T"], s["H"], s["D"], generator=g).to(dt)
    p_lse = 5 + 2 * torch.randn(s["H"], s["T"], generator=g)
    s_lse = 5 + 2 * torch.randn(s["H"], s["T"], generator=g)
    return p_out.to(device), p_lse.to(device), s_out.to(device), s_lse.to(device)


def reference(p_out: torch.Tensor, p_lse: torch.Tensor, s_out: torch.Tensor, s_lse: torch.Tensor) -> torch.Tensor:
    p, s = p_lse.double().t()[:, :, None], s_lse.double().t()[:, :, None]
    m = torch.maximum(p, s)
    pw, sw = torch.exp(p - m), torch.exp(s - m)
    return ((p_out.double() * pw + s_out.double() * sw) / (pw + sw)).to(p_out.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    n = s["T"] * s["H"] * s["D"]
    return {"bytes": 3 * n * item + 8 * s["T"] * s["H"], "flops": 4 * n}
