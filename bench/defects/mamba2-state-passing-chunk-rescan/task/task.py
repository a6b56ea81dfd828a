"""Mamba-2 SSD state passing (mamba_ssm _state_passing_fwd): the state entering each chunk,
out[c] = exp(dA[c-1]) * out[c-1] + states[c-1], out[0] = 0, per (batch, head) over the flattened headdim x dstate."""
import torch

META = {
    "name": "ssd_state_passing",
    "level": 2,
    "category": "scan",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 1, "C": 5, "H": 2, "dim": 256},
        "ragged": {"B": 2, "C": 19, "H": 3, "dim": 4000},
        "large": {"B": 4, "C": 64, "H": 32, "dim": 8192},
    },
    "baseline_notes": "Grid (dim / 1024, batch * head): each program walks the chunks in order, storing its running "
                      "state and folding in exp(dA) * state + states[c]; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """states [B, C, H, dim] (each chunk's own final state, normals), dA_chunk [B, H, C] (total log decay of
    each chunk, A * sum(dt) < 0)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    states = torch.randn(s["B"], s["C"], s["H"], s["dim"], generator=g)
    dA = -torch.rand(s["B"], s["H"], s["C"], generator=g) * 0.5
    return states.to(dt).to(device), dA.to(dt).to(device)


def reference(states: torch.Tensor, dA: torch.Tensor) -> torch.Tensor:
    B, C, H, dim = states.shape
    out = torch.empty(B, C, H, dim, dtype=torch.float64, device=states.device)
    run = torch.zeros(B, H, dim, dtype=torch.float64, device=states.device)
    for c in range(C):
        out[:, c] = run
        run = torch.exp(dA[:, :, c].double())[..., None] * run + states[:, c].double()
    return out.to(states.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["C"] * s["H"] * s["dim"]
    return {"bytes": 2 * n * getattr(torch, dtype or META["dtypes"][0]).itemsize, "flops": 2 * n}
