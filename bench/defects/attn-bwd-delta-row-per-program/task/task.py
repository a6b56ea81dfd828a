"""FlashAttention backward preprocessing: delta = rowsum(O * dO) in fp32 for every (batch, head, query) row
(flash_attn_triton.py _bwd_preprocess_do_o_dot), O and dO in the [B, S, H, D] layout, delta as [B, H, S]."""
import torch

META = {
    "name": "attn_bwd_delta",
    "level": 1,
    "category": "reduction",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 2, "S": 96, "H": 3, "D": 64},
        "ragged": {"B": 1, "S": 333, "H": 5, "D": 128},
        "large": {"B": 4, "S": 4096, "H": 32, "D": 128},
    },
    "baseline_notes": "Grid (cdiv(S, 128), B * H): each program loads [128, D] tiles of O and dO (rows H * D apart), "
                      "reduces along D in fp32 and stores 128 contiguous deltas; 8 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """o, do [B, S, H, D] (attention output and its gradient)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    shape = (s["B"], s["S"], s["H"], s["D"])
    o = torch.randn(shape, generator=g) * 0.5
    do = torch.randn(shape, generator=g) * 0.1
    return o.to(device=device, dtype=dt), do.to(device=device, dtype=dt)


def reference(o: torch.Tensor, do: torch.Tensor) -> torch.Tensor:
    return (o.double() * do.double()).sum(-1).transpose(1, 2).contiguous().float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    rows = s["B"] * s["S"] * s["H"]
    item = torch.tensor([], dtype=getattr(torch, dtype or META["dtypes"][0])).element_size()
    return {"bytes": 2 * rows * s["D"] * item + 4 * rows, "flops": 2 * rows * s["D"]}
