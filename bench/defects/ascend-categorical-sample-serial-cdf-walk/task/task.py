"""Categorical (inverse-CDF) sampling of the next token from temperature-scaled logits, as the vLLM
sampler's random path does per request: p = softmax(logits / T), token = the first index whose
cumulative probability reaches u * sum(p) for the request's uniform draw u. logits [B, V] fp32,
temperature [B] fp32 (> 0), uniform [B] fp32 in [0, 1); out [B] int64 token ids."""
import torch

META = {
    "name": "categorical_sample",
    "level": 2,
    "category": "sort",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"B": 4, "V": 9000},
        "ragged": {"B": 7, "V": 4999},
        "large": {"B": 64, "V": 152064},
    },
    "baseline_notes": "Grid of min(B, 40) programs (one per vector core), rows looped per program; per row "
                      "a max pass and a sum pass over 4,096-wide tiles (tile masses kept in a vector), then "
                      "tl.cumsum over the tile masses and over the chosen tile to find the crossing index.",
    # the token is a deterministic function of u, but with ~150k CDF boundaries an fp32 kernel can land
    # one index off a float64 reference when u falls within rounding of a boundary: check() allows that
    "deterministic": False,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """LM-head-like logits (a flat N(0, 2) floor with a few hundred boosted tokens per row), per-request
    temperatures in [0.6, 1.2] and one uniform draw per request."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    B, V = s["B"], s["V"]
    logits = torch.randn(B, V, generator=g) * 2.0
    hot = torch.randint(0, V, (B, max(1, V // 500)), generator=g)
    logits.scatter_add_(1, hot, torch.rand(hot.shape, generator=g) * 8.0)
    temperature = torch.rand(B, generator=g) * 0.6 + 0.6
    uniform = torch.rand(B, generator=g).clamp(max=0.999999)
    return logits.to(device), temperature.to(device), uniform.to(device)


def reference(logits: torch.Tensor, temperature: torch.Tensor, uniform: torch.Tensor) -> torch.Tensor:
    x = logits.double() / temperature.double()[:, None]
    p = torch.exp(x - x.amax(dim=1, keepdim=True))
    cdf = torch.cumsum(p, dim=1)
    target = uniform.double()[:, None] * cdf[:, -1:]
    idx = torch.searchsorted(cdf, target).squeeze(1)
    return idx.clamp(max=logits.shape[1] - 1).to(torch.int64)


def check(inputs: tuple, out: torch.Tensor) -> str | None:
    """Each token's float64 CDF interval [cdf[i-1], cdf[i]] (normalised) must hold u, to within 2e-5."""
    logits, temperature, uniform = inputs
    if out.dtype != torch.int64 or out.shape != (logits.shape[0],):
        return f"output is {out.dtype}{list(out.shape)}, expected int64[{logits.shape[0]}]"
    tok = out.long().cpu()
    if (tok < 0).any() or (tok >= logits.shape[1]).any():
        return "token id outside the vocabulary"
    x = logits.double().cpu() / temperature.double().cpu()[:, None]
    cdf = torch.cumsum(torch.exp(x - x.amax(dim=1, keepdim=True)), dim=1)
    cdf = cdf / cdf[:, -1:]
    hi = cdf.gather(1, tok[:, None]).squeeze(1)
    lo = torch.where(tok > 0, cdf.gather(1, (tok - 1).clamp(min=0)[:, None]).squeeze(1), torch.zeros_like(hi))
    u = uniform.double().cpu()
    bad = ((u < lo - 2e-5) | (u > hi + 2e-5)).nonzero().flatten().tolist()
    return f"rows {bad[:5]}: token's CDF interval does not hold u" if bad else None


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 4 * s["B"] * s["V"] + 16 * s["B"], "flops": 4 * s["B"] * s["V"]}
