"""AMCL sensor-update weight normalisation (ROS navigation amcl, pf_update_sensor) with the effective sample size.

After the sensor model has produced a likelihood p_i for every particle, pf_update_sensor multiplies it into
the weights, sums them, divides every weight by the sum and keeps the mean unnormalised weight for the
augmented-MCL running averages (w_slow / w_fast):
    v_i    = w_i * p_i
    total  = sum_i v_i,        w_avg = total / N
    w_new  = v_i / total
    n_eff  = 1 / sum_i w_new_i^2 = total^2 / sum_i v_i^2   (the effective sample size that selective
                                                            resampling compares with N / 2)
Returns (w_new [N] fp32, stats [2] fp32 = (w_avg, n_eff)).
"""
import torch

META = {
    "name": "amcl_weight_normalize",
    "level": 2,
    "category": "robotics",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-7, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 20000},
        "ragged": {"N": 50003},
        "large": {"N": 2097152},
    },
    "baseline_notes": "Two launches of 40 programs (the 910B4's vector cores): the first streams the "
                      "particles in 4096-element blocks, each program keeping its own sum of v and v^2 and "
                      "storing one partial pair; the second adds the 40 partial pairs in every program, "
                      "scales its share of the weights and program 0 stores (w_avg, n_eff). No autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """weights [N] (normalised, from the previous update), likelihood [N] (AMCL's p = 1 + sum pz^3)."""
    n = META["sizes"][size]["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    weights = torch.rand(n, generator=g) + 0.05
    weights = weights / weights.sum()
    # a few particles near the true pose score far higher than the rest
    likelihood = 1.0 + 60.0 * torch.rand(n, generator=g) ** 6 + 250.0 * (torch.rand(n, generator=g) < 0.01)
    return weights.to(dt).to(device), likelihood.to(dt).to(device)


def reference(weights: torch.Tensor, likelihood: torch.Tensor) -> tuple:
    v = weights.double() * likelihood.double()
    total = v.sum()
    w_new = v / total
    stats = torch.stack([total / v.numel(), total * total / (v * v).sum()])
    return w_new.to(weights.dtype), stats.to(weights.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    return {"bytes": 20 * n + 8, "flops": 5 * n}
