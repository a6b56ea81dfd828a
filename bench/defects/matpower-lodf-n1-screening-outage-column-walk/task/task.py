"""N-1 line-outage screening with line outage distribution factors (MATPOWER makeLODF, DC model).

lodf[l, k] is the change in the flow of monitored branch l per unit of pre-outage flow on branch k
when k is taken out (MATPOWER's nl x nl LODF, row-major here, lodf[k, k] = -1). For every outage k
the post-contingency flows are flow[l] + lodf[l, k] * flow[k]; the output is the worst loading
worst[k] = max_l |flow[l] + lodf[l, k] * flow[k]| / rate[l].
"""
import torch

META = {
    "name": "lodf_n1_worst_loading",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"L": 90},
        "ragged": {"L": 157},
        "large": {"L": 12706},
    },
    "baseline_notes": "Programs over blocks of BLOCK_K = 32 outages (the contiguous axis of lodf), each loops over "
                      "the monitored branches in chunks of BLOCK_L = 128 rows, keeps an elementwise running max of "
                      "the [BLOCK_L, BLOCK_K] loadings and reduces it over the branches once at the end; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """flow [L] base-case branch flows (MW), lodf [L, L] (monitored x outaged), rate [L] (rate_a, MVA)."""
    L = META["sizes"][size]["L"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    rate = torch.tensor([100.0, 250.0, 500.0, 1000.0])[torch.randint(0, 4, (L,), generator=g)]
    flow = rate * (torch.rand(L, generator=g) * 1.2 - 0.6)
    lodf = torch.randn(L, L, generator=g).mul_(0.03)
    near = torch.randint(0, L * L, (8 * L,), generator=g)
    lodf.view(-1)[near] = torch.randn(8 * L, generator=g) * 0.4
    lodf.fill_diagonal_(-1.0)
    return flow.to(dt).to(device), lodf.to(dt).to(device), rate.to(dt).to(device)


def reference(flow: torch.Tensor, lodf: torch.Tensor, rate: torch.Tensor) -> torch.Tensor:
    f = flow.double()
    worst = torch.empty_like(f)
    step = 1024
    for k0 in range(0, f.shape[0], step):
        post = f[:, None] + lodf[:, k0:k0 + step].double() * f[None, k0:k0 + step]
        worst[k0:k0 + step] = (post.abs() / rate.double()[:, None]).amax(0)
    return worst.to(flow.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    L = META["sizes"][size]["L"]
    return {"bytes": 4 * L * L + 16 * L, "flops": 4 * L * L}
