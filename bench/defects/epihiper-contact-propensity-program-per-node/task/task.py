"""EpiHiper transmission step: per-node infection probability from its incoming contact edges.

EpiHiper (NSSAC) keeps the contact network sorted by target node; for every susceptible node P it sums
the propensities of the active edges from infectious contacts P':
    rho(P, P') = duration(P, P') [s] * weight(P, P') * sigma(P) * iota(P') * omega
    A0(P)      = sum over incoming edges of rho ;   P(infection today) = 1 - exp(-A0 / 86400)
(CModel::_processTransmissions draws -log(U) < A0/86400). On the GPU the network is CSR by target:
indptr int32 [N+1], source id int32 [E], duration fp32 [E] (seconds), weight fp32 [E], active int8 [E]
(edges switched off by interventions such as school closure are 0); per node infectivity iota fp32 [N]
(0 unless infectious) and susceptibility sigma fp32 [N] (0 unless susceptible); omega is the
transmissibility of the (single) transmission. Returns the probability fp32 [N].
"""
import torch

# household sizes 1..6 (share of individuals' households) and mean daily non-household contacts
HOUSEHOLD_MIX = [0.28, 0.35, 0.15, 0.13, 0.06, 0.03]
ACTIVITY_CONTACTS = 9.0

META = {
    "name": "epihiper_infection_probability",
    "level": 2,
    "category": "segment-reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 300},
        "ragged": {"N": 517},
        "large": {"N": 8_000_000},
    },
    "baseline_notes": "Programs of 64 target nodes (4 warps): each loads its rows' CSR bounds and walks "
                      "[64, 16] edge tiles up to the block's largest in-degree, gathering the sources' "
                      "infectivity; row sums in registers, then sigma * omega / 86400 and 1 - exp; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """indptr, src, duration, weight, active (CSR by target), infectivity, susceptibility [N], omega (float)."""
    n = META["sizes"][size]["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    household = torch.multinomial(torch.tensor(HOUSEHOLD_MIX), n, replacement=True, generator=g)
    activity = torch.poisson(torch.full((n,), ACTIVITY_CONTACTS), generator=g).long()
    degree = household + activity
    indptr = torch.zeros(n + 1, dtype=torch.int64)
    indptr[1:] = torch.cumsum(degree, 0)
    e = int(indptr[-1])
    src = torch.randint(0, n, (e,), generator=g, dtype=torch.int32)
    duration = (-3600.0 * torch.log1p(-torch.rand(e, generator=g))).clamp_(60.0, 43200.0)
    weight = 0.5 + torch.rand(e, generator=g)
    active = (torch.rand(e, generator=g) < 0.85).to(torch.int8)
    state = torch.rand(n, generator=g)
    infectivity = torch.where(state < 0.02, 1.0, torch.where(state < 0.035, 0.5, 0.0))
    susceptibility = torch.where(state > 0.3, 0.6 + 0.4 * torch.rand(n, generator=g), torch.zeros(n))
    omega = 0.4
    return (indptr.to(torch.int32).to(device), src.to(device), duration.to(dt).to(device), weight.to(dt).to(device),
            active.to(device), infectivity.to(dt).to(device), susceptibility.to(dt).to(device), omega)


def reference(indptr, src, duration, weight, active, infectivity, susceptibility, omega) -> torch.Tensor:
    n = indptr.shape[0] - 1
    target = torch.repeat_interleave(torch.arange(n, device=indptr.device), (indptr[1:] - indptr[:-1]).long())
    rho = active.double() * duration.double() * weight.double() * infectivity.double()[src.long()]
    a0 = torch.zeros(n, dtype=torch.float64, device=indptr.device).index_add_(0, target, rho)
    a0 = a0 * susceptibility.double() * omega
    return (-torch.expm1(-a0 / 86400.0)).to(duration.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    e = int(n * (sum((k + 1) * p for k, p in enumerate(HOUSEHOLD_MIX)) - 1 + ACTIVITY_CONTACTS))
    return {"bytes": 17 * e + 16 * n, "flops": 5 * e + 6 * n}
