"""Linear (PMU-only) state estimation of the openECA / openPDC Linear State Estimator, replayed over a window of frames.

With every measurement a synchrophasor, the WLS state estimate is linear: for the complex measurement
model z = A v + e (bus-voltage phasors: rows of the identity; branch-current phasors at both ends:
I_f = (y + j b/2) V_f - y V_t and I_t = (y + j b/2) V_t - y V_f) the estimate is
    v_hat = (A^H W A)^-1 A^H W z = P z,
and the LSE computes the pseudo-inverse P once per topology and then, for every frame (30-60 per
second), only the complex matrix-vector product P z. In real arithmetic
    [Re v; Im v] = [[Pr, -Pi], [Pi, Pr]] [Re z; Im z],
so with the expanded matrix Preal [N, K] (N = 2 * buses, K = 2 * measurements) and the frames
stacked as rows Z [T, K] the batch is X = Z @ Preal^T, X [T, N] (real parts, then imaginary parts).
"""
import torch

META = {
    "name": "pmu_linear_state_estimate",
    "level": 2,
    "category": "matmul",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-3, "rtol": 2e-3}},
    "sizes": {
        "small": {"buses": 6, "branches": 8, "frames": 8},
        "ragged": {"buses": 9, "branches": 12, "frames": 13},
        "large": {"buses": 300, "branches": 411, "frames": 8192},
    },
    "baseline_notes": "Persistent programs (20, the A2's cube cores) walk [128 frames x 128 states] output "
                      "tiles; each accumulates tl.dot(Z tile [128, 64], trans(P tile [128, 64])) over the "
                      "measurement axis in fp32 and stores the tile once; both operands are read along "
                      "their contiguous measurement axis. No autotune.",
    "deterministic": True,
}


def _network(nbus: int, nbr: int, g: torch.Generator) -> tuple:
    """A connected random grid: a spanning tree plus chords (from, to, series y, total charging b)."""
    f, t = [], []
    for b in range(1, nbus):
        f.append(int(torch.randint(0, b, (1,), generator=g)))
        t.append(b)
    while len(f) < nbr:
        a, b = torch.randint(0, nbus, (2,), generator=g).tolist()
        if a != b:
            f.append(a)
            t.append(b)
    x = 0.02 + 0.23 * torch.rand(nbr, generator=g, dtype=torch.float64)
    r = x * (0.1 + 0.3 * torch.rand(nbr, generator=g, dtype=torch.float64))
    bsh = 0.1 * torch.rand(nbr, generator=g, dtype=torch.float64)
    y = 1.0 / torch.complex(r, x)
    return torch.tensor(f), torch.tensor(t), y, bsh


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Frames Z [T, K] (real parts of the K/2 phasor measurements, then imaginary parts) and Preal [N, K]."""
    s = META["sizes"][size]
    nbus, nbr, T = s["buses"], s["branches"], s["frames"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    f, t, y, bsh = _network(nbus, nbr, g)
    m = nbus + 2 * nbr
    A = torch.zeros(m, nbus, dtype=torch.complex128)
    A[torch.arange(nbus), torch.arange(nbus)] = 1.0
    rows_f = nbus + torch.arange(nbr)
    rows_t = nbus + nbr + torch.arange(nbr)
    ysh = y + 0.5j * bsh
    A[rows_f, f] += ysh
    A[rows_f, t] -= y
    A[rows_t, t] += ysh
    A[rows_t, f] -= y
    sigma = torch.cat([torch.full((nbus,), 0.002), torch.full((2 * nbr,), 0.004)]).double()
    w = (1.0 / sigma ** 2).to(torch.complex128)
    AhW = A.conj().T * w[None, :]
    P = torch.linalg.solve(AhW @ A, AhW)                       # [nbus, m] complex
    vm = 0.95 + 0.1 * torch.rand(nbus, generator=g, dtype=torch.float64)
    va = -0.3 + 0.4 * torch.rand(nbus, generator=g, dtype=torch.float64)
    k = torch.arange(T, dtype=torch.float64)[:, None]
    swing = 0.01 * torch.sin(2 * torch.pi * 0.7 * k / 30.0 + torch.rand(nbus, generator=g, dtype=torch.float64))
    v = torch.polar(vm[None, :] * (1.0 + 0.2 * swing), va[None, :] + swing)   # [T, nbus]
    z = v @ A.T                                                # [T, m]
    noise = torch.complex(torch.randn(T, m, generator=g, dtype=torch.float64),
                          torch.randn(T, m, generator=g, dtype=torch.float64))
    z = z + noise * sigma[None, :] / 2 ** 0.5
    Z = torch.cat([z.real, z.imag], dim=1)
    Preal = torch.cat([torch.cat([P.real, -P.imag], dim=1), torch.cat([P.imag, P.real], dim=1)], dim=0)
    return Z.to(dt).contiguous().to(device), Preal.to(dt).contiguous().to(device)


def reference(Z: torch.Tensor, Preal: torch.Tensor) -> torch.Tensor:
    return (Z.double() @ Preal.double().T).to(Z.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    N, K, T = 2 * s["buses"], 2 * (s["buses"] + 2 * s["branches"]), s["frames"]
    return {"bytes": 4 * (T * K + N * K + T * N), "flops": 2 * T * N * K}
