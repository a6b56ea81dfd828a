"""Second-order-cone block of SCS's cone projection (cones.c: proj_soc over k->q in proj_cone).

The SOC part of the cone K is a product of cones Q^{q_i} = {(t, x) : ||x||_2 <= t}, stored back to back
in one vector; cone i occupies v[ptr[i] : ptr[i+1]] (ptr is the prefix sum of SCS's q array, built once
at setup). Each cone is projected independently (Bauschke's formula, as in SCS's proj_soc):
    s = ||x||_2,  v1 = t
    s <= v1   : unchanged
    s <= -v1  : zero
    otherwise : alpha = (s + v1) / 2,  t <- alpha,  x <- (alpha / s) * x
(a cone of dimension 1 becomes max(t, 0)). Returns the projected vector, same shape as v.
"""
import torch

META = {
    "name": "soc_cone_projection",
    "level": 2,
    "category": "projection",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"n_cones": 6, "min_dim": 1, "max_dim": 600},
        "ragged": {"n_cones": 11, "min_dim": 1, "max_dim": 300},
        "large": {"n_cones": 4096, "min_dim": 9, "max_dim": 257},
    },
    "baseline_notes": "One launch: min(40, n_cones) programs (the 910B's vector cores) take cones "
                      "round-robin; per cone the bounds come from ptr, the tail norm is summed in 256-wide "
                      "chunks and a second pass writes the head and the scaled tail; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """v [N] (the SOC block of the iterate), ptr [n_cones + 1] int32 cone start offsets."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    dims = torch.randint(s["min_dim"], s["max_dim"] + 1, (s["n_cones"],), generator=g)
    if s["min_dim"] <= 2:
        dims[0], dims[1] = 1, 2
    ptr = torch.zeros(s["n_cones"] + 1, dtype=torch.int64)
    ptr[1:] = torch.cumsum(dims, 0)
    v = torch.randn(int(ptr[-1]), generator=g)
    heads = ptr[:-1]
    # heads spread so that all three branches (inside, polar, boundary projection) occur
    v[heads] = torch.randn(s["n_cones"], generator=g) * 1.3 * (dims - 1).clamp(min=1).float().sqrt()
    return v.to(dt).to(device), ptr.to(torch.int32).to(device)


def reference(v: torch.Tensor, ptr: torch.Tensor) -> torch.Tensor:
    x = v.double()
    p = ptr.long()
    dims = p[1:] - p[:-1]
    seg = torch.repeat_interleave(torch.arange(dims.numel(), device=v.device), dims)
    is_head = torch.zeros_like(x, dtype=torch.bool)
    is_head[p[:-1]] = True
    tail_sq = torch.where(is_head, torch.zeros_like(x), x * x)
    s = torch.zeros(dims.numel(), dtype=torch.float64, device=v.device).index_add_(0, seg, tail_sq).sqrt()
    v1 = x[p[:-1]]
    alpha = 0.5 * (s + v1)
    inside, polar = s <= v1, s <= -v1
    head = torch.where(inside, v1, torch.where(polar, torch.zeros_like(v1), alpha))
    scale = torch.where(inside, torch.ones_like(s),
                        torch.where(polar, torch.zeros_like(s), alpha / s.clamp(min=1e-300)))
    out = torch.where(is_head, head[seg], x * scale[seg])
    return out.to(v.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["n_cones"] * (s["min_dim"] + s["max_dim"]) // 2
    return {"bytes": 12 * n + 4 * s["n_cones"], "flops": 4 * n}
