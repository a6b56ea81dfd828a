"""Monte Carlo arithmetic-average Asian call under geometric Brownian motion, normals drawn in-kernel (Philox):
the discounted payoff of every simulated path."""
import math

import torch

META = {
    "name": "asian_call_mc_payoffs",
    "level": 2,
    "category": "random",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"P": 4096, "T": 24},
        "ragged": {"P": 3001, "T": 23},
        "large": {"P": 1048576, "T": 252},
    },
    "baseline_notes": "Grid over blocks of 256 paths, one lane per path; the fixings advance four at a time from one "
                      "tl.randn4x Philox draw per lane (offset = step group * paths + path), log-price and running sum "
                      "in registers; 4 warps.",
    "deterministic": False,
}

REF_PATHS = 1 << 20


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Contract terms on the device (S0, K, r, sigma, maturity), the number of paths and daily fixings, and the
    Philox seed."""
    s = META["sizes"][size]
    dt = getattr(torch, dtype or META["dtypes"][0])
    params = torch.tensor([100.0, 100.0, 0.05, 0.2, 1.0], dtype=dt, device=device)
    return params, s["P"], s["T"], 1234 + seed


def reference(params: torch.Tensor, n_paths: int, n_steps: int, seed: int) -> torch.Tensor:
    """The same estimator with torch's generator (other normals, same distribution), in float64."""
    s0, strike, rate, sigma, maturity = (float(v) for v in params.double().cpu())
    dt = maturity / n_steps
    g = torch.Generator(device=params.device).manual_seed(seed)
    z = torch.randn(n_paths, n_steps, generator=g, device=params.device, dtype=torch.float64)
    log_s = torch.cumsum((rate - 0.5 * sigma * sigma) * dt + sigma * math.sqrt(dt) * z, dim=1)
    avg = s0 * torch.exp(log_s).mean(dim=1)
    return (math.exp(-rate * maturity) * torch.clamp(avg - strike, min=0.0)).to(params.dtype)


def check(inputs: tuple, out: torch.Tensor) -> str | None:
    """Payoffs are random: compare their mean and spread with a 2^20-path float64 reference estimate."""
    params, n_paths, n_steps, seed = inputs
    if out.shape != (n_paths,) or out.dtype != torch.float32:
        return f"output is {out.dtype}{list(out.shape)}, expected float32[{n_paths}]"
    x = out.double()
    if not torch.isfinite(x).all() or (x < 0).any():
        return "payoffs must be finite and non-negative"
    ref = torch.cat([reference(params, REF_PATHS // 8, n_steps, 99 + i).double() for i in range(8)])
    se = math.sqrt(x.var().item() / n_paths + ref.var().item() / ref.numel())
    if abs(x.mean().item() - ref.mean().item()) > 6.0 * se:
        return f"price {x.mean().item():.4f} vs reference {ref.mean().item():.4f} (se {se:.4f})"
    sd_tol = 6.0 * ref.std().item() * math.sqrt(2.0 / n_paths) + 0.02 * ref.std().item()
    if abs(x.std().item() - ref.std().item()) > sd_tol:
        return f"payoff std {x.std().item():.4f} vs reference {ref.std().item():.4f}"
    return None


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 4 * s["P"] + 20, "flops": 40 * s["P"] * s["T"]}
