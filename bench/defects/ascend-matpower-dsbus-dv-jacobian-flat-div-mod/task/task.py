"""Power-flow Jacobian blocks dS/dVa and dS/dVm over the Ybus sparsity, batched over scenarios (MATPOWER dSbus_dV).

MATPOWER's dSbus_dV (polar form; pandapower's newtonpf calls the same formulas, numba-compiled in
dSbus_dV_numba_sparse) builds, for every nonzero Y_ij of the bus admittance matrix,
    dS_dVm[i, j] = V_i * conj(Y_ij * Vn_j) + [i == j] * conj(I_i) * Vn_i,      Vn = V / |V|
    dS_dVa[i, j] = 1j * V_i * conj([i == j] * I_i - Y_ij * V_j),                 I = Ybus V
A batched Newton-Raphson (one Jacobian per load/renewable scenario, ExaPF-style batch-last storage)
evaluates them for S scenarios that share the sparsity. Inputs: CSR-ordered row [nnz] and col [nnz] int32,
y [2, nnz] fp32 (Re, Im of Ybus), v [2, nb, S] and ibus [2, nb, S] fp32 (Re, Im; the scenario axis
contiguous). Output jac [4, nnz, S] fp32: Re dS_dVa, Im dS_dVa, Re dS_dVm, Im dS_dVm.
"""
import torch

META = {
    "name": "dsbus_dv_batched",
    "level": 2,
    "category": "sparse",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"nb": 14, "nl": 20, "S": 8},        # IEEE 14-bus
        "ragged": {"nb": 30, "nl": 41, "S": 5},       # IEEE 30-bus
        "large": {"nb": 9241, "nl": 16049, "S": 256}, # case9241pegase, 256 scenarios
    },
    "baseline_notes": "40 programs (the 910B's vector cores) loop over the Ybus nonzeros; per nonzero the row, "
                      "column and admittance are scalar loads and the S scenarios of V_i, V_j and I_i are contiguous "
                      "row loads (BS = next_power_of_2(S)); the four Jacobian rows are contiguous stores. No autotune.",
    "deterministic": True,
}


def _ybus(nb: int, nl: int, g: torch.Generator):
    """Ybus of a meshed synthetic grid (random tree + local chords, pi-model lines without taps), coalesced COO."""
    f = torch.empty(nl, dtype=torch.long)
    t = torch.empty(nl, dtype=torch.long)
    hang = torch.randint(0, 6, (nb,), generator=g)
    for b in range(1, nb):
        f[b - 1] = b
        t[b - 1] = max(0, b - 1 - int(hang[b]))
    a = torch.randint(0, max(1, nb - 2), (nl,), generator=g)
    span = torch.randint(2, 14, (nl,), generator=g)
    for c in range(nb - 1, nl):
        f[c] = int(a[c])
        t[c] = min(nb - 1, int(a[c]) + int(span[c]))
    x = 0.01 + 0.14 * torch.rand(nl, generator=g, dtype=torch.float64)
    r = x * (0.1 + 0.3 * torch.rand(nl, generator=g, dtype=torch.float64))
    bc = 0.05 * torch.rand(nl, generator=g, dtype=torch.float64)
    ys = 1.0 / torch.complex(r, x)
    ysh = torch.complex(torch.zeros(nl, dtype=torch.float64), bc / 2)
    gs = torch.complex(torch.zeros(nb, dtype=torch.float64), 0.02 * torch.rand(nb, generator=g, dtype=torch.float64))
    idx_r = torch.cat([f, t, f, t, torch.arange(nb)])
    idx_c = torch.cat([f, t, t, f, torch.arange(nb)])
    val = torch.cat([ys + ysh, ys + ysh, -ys, -ys, gs])
    yb = torch.sparse_coo_tensor(torch.stack([idx_r, idx_c]), val, (nb, nb), check_invariants=False).coalesce()
    return yb.indices()[0], yb.indices()[1], yb.values()


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """row, col [nnz] int32 (CSR order), y [2, nnz], v [2, nb, S], ibus [2, nb, S]."""
    s = META["sizes"][size]
    nb, nl, S = s["nb"], s["nl"], s["S"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    row, col, yv = _ybus(nb, nl, g)
    vm = 0.95 + 0.1 * torch.rand(nb, S, generator=g, dtype=torch.float64)
    va = torch.cumsum(0.02 * torch.randn(nb, 1, generator=g, dtype=torch.float64), 0) \
        + 0.01 * torch.randn(nb, S, generator=g, dtype=torch.float64)
    va = va - va[:1]
    V = torch.polar(vm, va)
    I = torch.zeros(nb, S, dtype=torch.complex128)
    I.index_add_(0, row, yv[:, None] * V[col])
    y = torch.stack([yv.real, yv.imag])
    v = torch.stack([V.real, V.imag])
    ib = torch.stack([I.real, I.imag])
    return (row.to(torch.int32).to(device), col.to(torch.int32).to(device), y.to(dt).to(device),
            v.to(dt).to(device), ib.to(dt).to(device))


def reference(row, col, y, v, ibus) -> torch.Tensor:
    r, c = row.long(), col.long()
    Y = torch.complex(y[0].double(), y[1].double())[:, None]
    V = torch.complex(v[0].double(), v[1].double())
    I = torch.complex(ibus[0].double(), ibus[1].double())
    Vi, Vj, Ii = V[r], V[c], I[r]
    diag = (r == c)[:, None].to(torch.float64)
    dvm = Vi * torch.conj(Y * Vj / Vj.abs()) + diag * torch.conj(Ii) * Vi / Vi.abs()
    dva = 1j * Vi * torch.conj(diag * Ii - Y * Vj)
    return torch.stack([dva.real, dva.imag, dvm.real, dvm.imag]).to(v.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    nnz = s["nb"] + 2 * s["nl"]
    S = s["S"]
    return {"bytes": 4 * (4 * nnz + 4 * s["nb"] * S + 4 * nnz * S), "flops": 40 * nnz * S}
