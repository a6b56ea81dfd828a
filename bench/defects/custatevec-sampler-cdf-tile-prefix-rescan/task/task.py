"""Cumulative measurement-probability table of a batch of statevectors (sampler preprocessing).

Before bit strings are drawn from a statevector, cuStateVec's sampler (custatevecSamplerPreprocess) and
qiskit-aer's GPU statevector (sample_measure: thrust inclusive_scan of |amplitude|^2, then lower_bound of
the sorted random numbers) build the inclusive prefix sum of the outcome probabilities:
    cdf[b, i] = sum_{j <= i} |psi_b[j]|^2
for every statevector b of a batch (qiskit-aer batched shots: many parameter-bound copies of one circuit
run side by side). Amplitudes are complex64 stored interleaved as fp32 [B, 2^n, 2] (re, im); the table is
fp32 [B, 2^n]; each statevector is normalised, so cdf[b, -1] == 1 up to rounding.
"""
import torch

META = {
    "name": "statevector_sampler_cdf",
    "level": 2,
    "category": "scan",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 3, "n_qubits": 13},
        "ragged": {"B": 5, "n_qubits": 12},
        "large": {"B": 1024, "n_qubits": 16},
    },
    "baseline_notes": "One program per statevector (grid = B) walks its 2^n amplitudes in tiles of 2048: each "
                      "[2048, 2] (re, im) tile is loaded contiguously, |a|^2 is summed over the pair axis, "
                      "tl.cumsum gives the in-tile prefix, the running total carried in a register from the "
                      "previous tiles is added and the tile stored; 4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """psi [B, 2^n, 2] fp32: normalised random complex statevectors with a peaked (non-uniform) distribution."""
    s = META["sizes"][size]
    B, dim = s["B"], 1 << s["n_qubits"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    psi = torch.randn(B, dim, 2, generator=g)
    # a few heavy outcomes, as after a shallow variational circuit
    heavy = torch.randint(0, dim, (B, 8), generator=g)
    psi[torch.arange(B)[:, None], heavy] *= 6.0
    psi = psi / psi.pow(2).sum(dim=(1, 2), keepdim=True).sqrt()
    return (psi.to(dt).to(device),)


def reference(psi: torch.Tensor) -> torch.Tensor:
    p = psi.double().pow(2).sum(dim=-1)
    return torch.cumsum(p, dim=1).to(psi.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] << s["n_qubits"]
    return {"bytes": 12 * n, "flops": 4 * n}
