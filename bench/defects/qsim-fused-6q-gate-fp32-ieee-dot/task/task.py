"""Apply a fused k-qubit gate to the k lowest qubits of a state vector (qsim gate fusion / cuStateVec applyMatrix).

The state has 2^n complex amplitudes stored as separate real and imaginary fp32 planes; bit j of
an amplitude's index is qubit j (qubit 0 the least significant bit).  Gate fusion folds a run of
gates acting on qubits 0..k-1 into one dense 2^k x 2^k unitary U (separate real and imaginary fp32
planes, row = output basis state); applying it is psi'[h * 2^k + i] = sum_j U[i, j] psi[h * 2^k + j]
for every assignment h of the other n-k qubits, i.e. the complex GEMM  Psi' = Psi U^T  with Psi the
[2^(n-k), 2^k] view of the state.  The state is left unnormalised (the map is linear) so that the
tolerance reads on amplitudes of order one.
"""
import torch

META = {
    "name": "fused_gate_low_qubits",
    "level": 2,
    "category": "quantum",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"n": 8, "k": 4},
        "ragged": {"n": 11, "k": 5},
        "large": {"n": 28, "k": 6},
    },
    "baseline_notes": "One program per 128 rows of the [2^(n-k), 2^k] view: loads the real and imaginary row tiles "
                      "and U^T (both planes), four tl.dot (tf32 tensor cores, fp32 accumulation) for the complex "
                      "product, two stores; 8 warps, no autotune.",
    "deterministic": True,
}


def _random_unitary(K: int, g: torch.Generator) -> torch.Tensor:
    z = torch.complex(torch.randn(K, K, generator=g, dtype=torch.float64),
                      torch.randn(K, K, generator=g, dtype=torch.float64))
    q, r = torch.linalg.qr(z)
    d = torch.diagonal(r)
    return q * (d / d.abs())[None, :]


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """re [2^n], im [2^n], u_re [2^k, 2^k], u_im [2^k, 2^k]."""
    s = META["sizes"][size]
    n, K = s["n"], 1 << s["k"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    u = _random_unitary(K, g)
    re = torch.randn(1 << n, generator=g, dtype=dt) * 0.7071
    im = torch.randn(1 << n, generator=g, dtype=dt) * 0.7071
    return (re.to(device), im.to(device), u.real.to(dt).contiguous().to(device),
            u.imag.to(dt).contiguous().to(device))


def reference(re: torch.Tensor, im: torch.Tensor, u_re: torch.Tensor, u_im: torch.Tensor) -> tuple:
    K = u_re.shape[0]
    psi = torch.complex(re.double(), im.double()).reshape(-1, K)
    u = torch.complex(u_re.double(), u_im.double())
    out = (psi @ u.T).reshape(-1)
    return out.real.to(re.dtype), out.imag.to(re.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n_amp, K = 1 << s["n"], 1 << s["k"]
    return {"bytes": 16 * n_amp + 8 * K * K, "flops": 8 * K * n_amp}
