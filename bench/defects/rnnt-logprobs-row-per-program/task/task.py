"""RNN-T loss log-prob lattice (torchaudio rnnt_loss / warp-transducer ComputeLogProbs): for every joint-network
output row (b, t, u) of logits [B, T, U + 1, V], log_softmax over the V classes, keeping only
out[b, t, u, 0] = logp(blank) and out[b, t, u, 1] = logp(targets[b, u]) (0 at u = U). Blank is class V - 1."""
import torch

META = {
    "name": "rnnt_logprob_lattice",
    "level": 2,
    "category": "softmax",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"B": 2, "T": 9, "U": 5, "V": 29},
        "ragged": {"B": 3, "T": 13, "U": 7, "V": 29},
        "large": {"B": 32, "T": 250, "U": 150, "V": 29},
    },
    "baseline_notes": "Programs of 64 lattice rows: a [64, 32] tile (29 valid classes per row, rows contiguous) "
                      "loaded once, row max / sum of exp in registers, blank and target logits picked from the tile "
                      "with a where-sum against the class index, [64, 2] stored; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """logits [B, T, U + 1, V] from the joint network and targets [B, U] int32 in [0, V - 2]."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    logits = torch.randn(s["B"], s["T"], s["U"] + 1, s["V"], generator=g) * 3.0
    targets = torch.randint(0, s["V"] - 1, (s["B"], s["U"]), generator=g)
    return logits.to(dt).to(device), targets.to(torch.int32).to(device)


def reference(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    B, T, U1, V = logits.shape
    lp = torch.log_softmax(logits.double(), dim=-1)
    out = torch.zeros(B, T, U1, 2, dtype=torch.float64, device=logits.device)
    out[..., 0] = lp[..., V - 1]
    idx = targets.long()[:, None, :, None].expand(B, T, U1 - 1, 1)
    out[:, :, : U1 - 1, 1] = lp[:, :, : U1 - 1].gather(-1, idx)[..., 0]
    return out.to(logits.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    rows = s["B"] * s["T"] * (s["U"] + 1)
    return {"bytes": 4 * rows * (s["V"] + 2) + 4 * s["B"] * s["U"], "flops": 4 * rows * s["V"]}
