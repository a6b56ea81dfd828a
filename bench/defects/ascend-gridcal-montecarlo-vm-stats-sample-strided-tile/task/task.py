"""Per-bus voltage statistics of a Monte Carlo (stochastic) power flow, as GridCal's StochasticPowerFlowResults
compiles them from the sampled voltages.

Each of the S samples is one converged AC power flow for a random draw of the loads and renewable
injections; the driver stores the bus voltage magnitudes of sample s as row s of vm [S, nbus] (the
V_points array). The results reduce every bus over the samples:
    mean_b  = (1/S) sum_s vm[s, b]
    std_b   = sqrt((1/S) sum_s (vm[s, b] - mean_b)^2)            (population std, numpy's np.std)
    pviol_b = (1/S) #{s : vm[s, b] < vmin_b or vm[s, b] > vmax_b}  (voltage-violation probability)
Returns (mean, std, pviol), each fp32 [nbus].
"""
import torch

META = {
    "name": "montecarlo_voltage_stats",
    "level": 1,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"S": 40, "nbus": 50},
        "ragged": {"S": 77, "nbus": 203},
        "large": {"S": 4096, "nbus": 10000},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over blocks of 128 buses; each walks the "
                      "samples in [32 samples x 128 buses] tiles whose last axis is the contiguous bus axis, "
                      "accumulating shifted sums (shift = sample 0), sums of squares and violation counts "
                      "per bus with reductions over axis 0; one store per block. No autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """vm [S, nbus] sampled voltage magnitudes (p.u.), vmin [nbus], vmax [nbus] (p.u.)."""
    s = META["sizes"][size]
    S, nb = s["S"], s["nbus"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    vm0 = 0.97 + 0.07 * torch.rand(nb, generator=g)               # base-case profile
    sens = 0.005 + 0.025 * torch.rand(nb, generator=g)            # sensitivity to the system load level
    level = torch.randn(S, 1, generator=g)                         # correlated load-level draw per sample
    vm = vm0[None, :] - sens[None, :] * level + 0.004 * torch.randn(S, nb, generator=g)
    dist = torch.rand(nb, generator=g) < 0.3                       # distribution buses: wider band
    vmin = torch.where(dist, torch.tensor(0.90), torch.tensor(0.95))
    vmax = torch.where(dist, torch.tensor(1.10), torch.tensor(1.05))
    return vm.to(dt).contiguous().to(device), vmin.to(dt).to(device), vmax.to(dt).to(device)


def reference(vm: torch.Tensor, vmin: torch.Tensor, vmax: torch.Tensor) -> tuple:
    v = vm.double()
    mean = v.mean(dim=0)
    std = v.std(dim=0, unbiased=False)
    viol = ((vm < vmin[None, :]) | (vm > vmax[None, :])).double().mean(dim=0)
    return mean.to(vm.dtype), std.to(vm.dtype), viol.to(vm.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 4 * s["S"] * s["nbus"] + 20 * s["nbus"], "flops": 6 * s["S"] * s["nbus"]}
