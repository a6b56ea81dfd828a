"""Expectation values of a Pauli-string Hamiltonian on a state vector (Qiskit Statevector.expectation_value
of a SparsePauliOp: the per-term x-mask / z-mask kernel, the loop quimb and OpenFermion users run for VQE).

psi is an n-qubit state of 2^n complex64 amplitudes, stored interleaved as float32 [2^n, 2] (the layout of
torch.view_as_real), qubit q being bit q of the basis index (little-endian). Term k is a Pauli string P_k
with real coefficient c_k, given by x_mask[k] (qubits carrying X or Y), z_mask[k] (qubits carrying Z or Y)
and n_y[k] (how many Y it carries). Since Y|b> = i (-1)^b |1 - b>,
    P_k |x> = i^{n_y} (-1)^{popcount(x & z_mask)} |x ^ x_mask>,
so <psi|P_k|psi> = Re sum_x conj(psi[x ^ x_mask]) psi[x] i^{n_y} (-1)^{popcount(x & z_mask)}.
Returns the per-term energies c_k <psi|P_k|psi> as float32 [T] (their sum is <H>).
"""
import torch

META = {
    "name": "pauli_expval_terms",
    "level": 2,
    "category": "quantum-simulation",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-3}},
    "sizes": {
        "small": {"n_qubits": 6, "n_terms": 12},
        "ragged": {"n_qubits": 5, "n_terms": 13},
        "large": {"n_qubits": 16, "n_terms": 2000},
    },
    "baseline_notes": "One launch with one program per Pauli term; each program loads the term's masks, "
                      "streams the whole state in blocks of 1024 amplitudes ([1024, 2] tiles of psi[x] and "
                      "psi[x ^ x_mask]), folds the parity of x & z_mask with shifts, keeps real and imaginary "
                      "partial sums in registers and stores c_k * Re(i^n_y * sum). 4 warps, no atomics.",
    "deterministic": True,
}
P_IDENTITY = 0.7  # share of identity factors in a random term (molecular JW terms are mostly I and Z-chains)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """psi float32 [2^n, 2] (normalised), x_mask, z_mask, n_y int32 [T], coeff float32 [T]."""
    s = META["sizes"][size]
    n, t = s["n_qubits"], s["n_terms"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    psi = torch.randn(2 ** n, 2, generator=g, dtype=torch.float64)
    psi = psi / psi.pow(2).sum().sqrt()
    # letters: 0 = I, 1 = X, 2 = Y, 3 = Z
    letters = torch.randint(1, 4, (t, n), generator=g)
    letters = torch.where(torch.rand(t, n, generator=g) < P_IDENTITY, torch.zeros_like(letters), letters)
    bits = 2 ** torch.arange(n)
    x_mask = (((letters == 1) | (letters == 2)).long() * bits).sum(1)
    z_mask = (((letters == 3) | (letters == 2)).long() * bits).sum(1)
    n_y = (letters == 2).long().sum(1)
    coeff = 0.2 * torch.randn(t, generator=g)
    return (psi.to(device=device, dtype=dt), x_mask.to(device=device, dtype=torch.int32),
            z_mask.to(device=device, dtype=torch.int32), n_y.to(device=device, dtype=torch.int32),
            coeff.to(device=device, dtype=dt))


def _parity(v: torch.Tensor) -> torch.Tensor:
    for shift in (16, 8, 4, 2, 1):
        v = v ^ (v >> shift)
    return v & 1


def reference(psi: torch.Tensor, x_mask: torch.Tensor, z_mask: torch.Tensor, n_y: torch.Tensor,
              coeff: torch.Tensor) -> torch.Tensor:
    amp = torch.view_as_complex(psi.double().contiguous())
    idx = torch.arange(amp.shape[0], device=psi.device, dtype=torch.int64)
    out = torch.empty(x_mask.shape[0], dtype=torch.float64, device=psi.device)
    phases = torch.tensor([1, 1j, -1, -1j], dtype=torch.complex128, device=psi.device)
    xs, zs, ys = x_mask.long(), z_mask.long(), n_y.long() % 4
    for k in range(x_mask.shape[0]):
        sign = 1.0 - 2.0 * _parity(idx & zs[k]).double()
        val = (amp[idx ^ xs[k]].conj() * amp * sign).sum() * phases[ys[k]]
        out[k] = val.real * coeff[k].double()
    return out.to(psi.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n_amp, t = 2 ** s["n_qubits"], s["n_terms"]
    return {"bytes": 8 * n_amp + 16 * t, "flops": 10 * n_amp * t}
