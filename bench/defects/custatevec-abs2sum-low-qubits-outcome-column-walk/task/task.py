"""Measurement probabilities of the m lowest qubits of a state vector (cuStateVec abs2SumArray).

The state has 2^n complex amplitudes stored as separate real and imaginary fp32 planes; bit j of
an amplitude's index is qubit j (little endian, qubit 0 the least significant bit).  The marginal
distribution of qubits 0..m-1 is probs[k] = sum over the other index bits h of
|psi[h * 2^m + k]|^2, i.e. the column sums of |psi|^2 viewed as a [2^(n-m), 2^m] matrix
(PennyLane-Lightning-GPU probs(wires=...) with bit_ordering = [0, 1, ..., m-1]).
"""
import torch

META = {
    "name": "abs2sum_low_qubits",
    "level": 2,
    "category": "quantum",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-7, "rtol": 1e-4}},
    "sizes": {
        "small": {"n": 10, "m": 4},
        "ragged": {"n": 11, "m": 3},
        "large": {"n": 28, "m": 8},
    },
    "baseline_notes": "Split over the rows of the [2^(n-m), 2^m] view: up to 1,024 programs, each sums |psi|^2 "
                      "tiles of [4096 / 2^m, 2^m] (rows contiguous) into a register accumulator and stores one "
                      "row of partial column sums; a second small kernel adds the partials per outcome. fp32 "
                      "accumulation, 4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """re [2^n], im [2^n] (normalised state), m (int: qubits 0..m-1 are measured)."""
    s = META["sizes"][size]
    n, m = s["n"], s["m"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    re = torch.randn(1 << (n - m), 1 << m, generator=g)
    im = torch.randn(1 << (n - m), 1 << m, generator=g)
    # skew the measured qubits' marginal so the outcomes do not all carry the same weight
    weight = (1.0 + 3.0 * torch.rand(1 << m, generator=g)).sqrt()
    re.mul_(weight)
    im.mul_(weight)
    norm = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(x, dtype=torch.float64) for x in (re, im)]))
    re.div_(float(norm))
    im.div_(float(norm))
    return re.reshape(-1).to(dt).to(device), im.reshape(-1).to(dt).to(device), m


def reference(re: torch.Tensor, im: torch.Tensor, m: int) -> torch.Tensor:
    p = re.double() ** 2 + im.double() ** 2
    return p.reshape(-1, 1 << m).sum(0).to(re.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n_amp = 1 << s["n"]
    return {"bytes": 8 * n_amp + 4 * (1 << s["m"]), "flops": 3 * n_amp}
