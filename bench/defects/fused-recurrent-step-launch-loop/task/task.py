"""Recurrent linear attention with a per-head decay (flash-linear-attention fused_recurrent, retention / simple GLA form):
S_t = exp(g_h) S_{t-1} + k_t^T v_t, o_t = scale * q_t S_t, on [B, T, H, D] tensors from a zero state."""
import torch

META = {
    "name": "fused_recurrent_retention",
    "level": 2,
    "category": "recurrence",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 5e-3, "rtol": 5e-3}},
    "sizes": {
        "small": {"B": 1, "T": 6, "H": 2, "D": 32},
        "ragged": {"B": 2, "T": 37, "H": 3, "D": 64},
        "large": {"B": 4, "T": 2048, "H": 16, "D": 128},
    },
    "baseline_notes": "One launch, grid (batch * head, D / 32 value columns): each program keeps its [D, 32] "
                      "state slice in registers and walks the T steps; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """q, k, v [B, T, H, D] (k L2-normalised, as the models feed it), g [H] log decays log(1 - 2^(-5 - h/2))."""
    s = META["sizes"][size]
    gen = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    shape = (s["B"], s["T"], s["H"], s["D"])
    q = torch.randn(shape, generator=gen)
    k = torch.nn.functional.normalize(torch.randn(shape, generator=gen), dim=-1)
    v = torch.randn(shape, generator=gen)
    g = torch.log(1 - 2.0 ** (-5.0 - torch.arange(s["H"]) / 2))
    return q.to(dt).to(device), k.to(dt).to(device), v.to(dt).to(device), g.to(dt).to(device)


def reference(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, g: torch.Tensor) -> torch.Tensor:
    B, T, H, D = q.shape
    scale = D ** -0.5
    q64, k64, v64 = q.double(), k.double(), v.double()
    decay = torch.exp(g.double())[None, :, None, None]
    state = torch.zeros(B, H, D, D, dtype=torch.float64, device=q.device)
    out = torch.empty(B, T, H, D, dtype=torch.float64, device=q.device)
    for t in range(T):
        state = decay * state + k64[:, t, :, :, None] * v64[:, t, :, None, :]
        out[:, t] = scale * torch.einsum("bhk,bhkv->bhv", q64[:, t], state)
    return out.to(q.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["T"] * s["H"] * s["D"]
    return {"bytes": 4 * n * getattr(torch, dtype or META["dtypes"][0]).itemsize, "flops": 4 * n * s["D"]}
