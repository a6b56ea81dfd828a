"""Pauli-Z string expectation values over a batch of parameter-shifted state vectors (PennyLane-Lightning).

The parameter-shift rule runs 2P shifted copies of a circuit ("tapes") and measures
<psi_t| Z_w1 Z_w2 ... |psi_t> on each.  Each state has 2^n complex amplitudes stored as separate
real and imaginary fp32 planes, one row per tape; the Z string is given as a bit mask over the
amplitude index, so  <Z> = sum_i (-1)^popcount(i & zmask) * (re_i^2 + im_i^2).
"""
import torch

META = {
    "name": "param_shift_zstring_expval",
    "level": 2,
    "category": "quantum",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"T": 3, "n": 6},
        "ragged": {"T": 5, "n": 9},
        "large": {"T": 384, "n": 16},
    },
    "baseline_notes": "One program per tape over a single launch (grid = number of tapes): the program walks its "
                      "state in 2048-amplitude blocks, |a|^2 with a sign from the parity of index & zmask (xor "
                      "folding), fp32 accumulation, one store per tape; 4 warps, no autotune.",
    "deterministic": True,
}


def _zmask(n: int) -> int:
    """Z on wires 0, 1, n/2 and n-1 (PennyLane wire 0 is the most significant index bit)."""
    wires = sorted({0, 1, n // 2, n - 1})
    mask = 0
    for w in wires:
        mask |= 1 << (n - 1 - w)
    return mask


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """re [T, 2^n], im [T, 2^n] (each tape's state normalised), zmask (int)."""
    s = META["sizes"][size]
    T, n = s["T"], s["n"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    re = torch.randn(T, 1 << n, generator=g)
    im = torch.randn(T, 1 << n, generator=g)
    # a few tapes carry a bias towards |0...0> so the expectation values are not all near zero
    re[:, 0] += torch.linspace(0.0, float(1 << (n // 2 + 2)), T)
    norm = (re.double() ** 2 + im.double() ** 2).sum(1, keepdim=True).sqrt()
    re = (re.double() / norm).to(dt)
    im = (im.double() / norm).to(dt)
    return re.to(device), im.to(device), _zmask(n)


def reference(re: torch.Tensor, im: torch.Tensor, zmask: int) -> torch.Tensor:
    D = re.shape[1]
    idx = torch.arange(D, device=re.device) & zmask
    parity = torch.zeros(D, dtype=torch.long, device=re.device)
    while bool((idx != 0).any()):
        parity ^= idx & 1
        idx = idx >> 1
    sign = 1.0 - 2.0 * parity.double()
    p = re.double() ** 2 + im.double() ** 2
    return (p * sign[None, :]).sum(1).to(re.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n_amp = s["T"] * (1 << s["n"])
    return {"bytes": 8 * n_amp + 4 * s["T"], "flops": 5 * n_amp}
