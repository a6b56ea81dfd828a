"""Newton-Raphson power-flow mismatch (pandapower newtonpf / MATPOWER newtonpf: mis = V * conj(Ybus V) - Sbus)
for a batch of load scenarios on one network, Ybus in CSR (scipy csr_matrix layout, int32 indices).

out[0, s, i] = Re(mis[s, i]), out[1, s, i] = Im(mis[s, i]) with
mis[s, i] = V[s, i] * conj(sum_j Y[i, j] V[s, j]) - S[s, i].
"""
import torch

META = {
    "name": "newtonpf_mismatch",
    "level": 2,
    "category": "gather",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"S": 3, "N": 50},
        "ragged": {"S": 5, "N": 97},
        "large": {"S": 1024, "N": 10000},
    },
    "baseline_notes": "Grid (cdiv(N, 128), S): each program takes 128 consecutive buses of one scenario as a "
                      "[128, 8] tile of CSR slots (loop over 8-slot chunks up to the longest row of the block), "
                      "gathers V at the column indices, reduces along the slots, writes both planes; 4 warps.",
    "deterministic": True,
}


def _ybus(N: int, g: torch.Generator):
    """A meshed transmission-like network: a chain backbone plus ~27% extra local branches, pi-model lines."""
    f = torch.arange(N - 1)
    t = f + 1
    extra = int(0.27 * N)
    ef = torch.randint(0, N, (extra,), generator=g)
    et = (ef + torch.randint(2, 40, (extra,), generator=g)) % N
    keep = ef != et
    f, t = torch.cat([f, ef[keep]]), torch.cat([t, et[keep]])
    z = torch.complex(0.002 + 0.02 * torch.rand(f.numel(), generator=g, dtype=torch.float64),
                      0.02 + 0.2 * torch.rand(f.numel(), generator=g, dtype=torch.float64))
    y = 1.0 / z
    bsh = torch.complex(torch.zeros_like(z.real), 0.05 * torch.rand(f.numel(), generator=g, dtype=torch.float64))
    rows = torch.cat([f, t, f, t])
    cols = torch.cat([t, f, f, t])
    vals = torch.cat([-y, -y, y + bsh / 2, y + bsh / 2])
    key, inv = torch.unique(rows * N + cols, sorted=True, return_inverse=True)
    merged = torch.zeros(key.numel(), dtype=vals.dtype).index_add_(0, inv, vals)
    indptr = torch.zeros(N + 1, dtype=torch.int64)
    indptr[1:] = torch.cumsum(torch.bincount(key // N, minlength=N), 0)
    return indptr.to(torch.int32), (key % N).to(torch.int32), merged


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """vr, vi [S, N] voltages, sr, si [S, N] specified injections (p.u.), Ybus CSR: indptr, indices, yr, yi."""
    s = META["sizes"][size]
    S, N = s["S"], s["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    indptr, indices, y = _ybus(N, g)
    vm = 0.95 + 0.1 * torch.rand(S, N, generator=g)
    va = 0.3 * torch.rand(1, N, generator=g) - 0.15 + 0.02 * torch.randn(S, N, generator=g)
    vr, vi = vm * torch.cos(va), vm * torch.sin(va)
    sr = 2.0 * torch.rand(S, N, generator=g) - 1.0
    si = 0.5 * torch.rand(S, N, generator=g) - 0.25
    dense = [t.to(dt).contiguous().to(device) for t in (vr, vi, sr, si)]
    return (*dense, indptr.to(device), indices.to(device), y.real.to(dt).to(device), y.imag.to(dt).to(device))


def reference(vr, vi, sr, si, indptr, indices, yr, yi) -> torch.Tensor:
    N = vr.shape[1]
    row = torch.repeat_interleave(torch.arange(N, device=vr.device), (indptr[1:] - indptr[:-1]).long())
    V = torch.complex(vr.double(), vi.double())
    Y = torch.complex(yr.double(), yi.double())
    I = torch.zeros_like(V).index_add_(1, row, Y[None, :] * V[:, indices.long()])
    mis = V * torch.conj(I) - torch.complex(sr.double(), si.double())
    return torch.stack((mis.real, mis.imag)).to(vr.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    S, N = s["S"], s["N"]
    nnz = int(N * 3.55)
    return {"bytes": 24 * S * N + 12 * nnz + 4 * N, "flops": 8 * S * nnz + 8 * S * N}
