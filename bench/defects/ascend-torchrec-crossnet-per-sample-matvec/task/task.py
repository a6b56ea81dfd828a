"""One DCN-v2 cross layer (TorchRec ``torchrec.modules.crossnet.CrossNet``, full-rank form).

TorchRec's CrossNet applies, for each layer l,
    x_{l+1} = x_0 * (W_l x_l + b_l) + x_l
with a full [D, D] kernel W_l per layer (``xl_w = kernels[l] @ x_l``, then ``x_0 * (xl_w + bias[l]) + x_l``).
This task is one layer of that loop over a batch: x0, xl [B, D], W [D, D], b [D], all fp16 (inference),
fp32 accumulation, fp16 output [B, D].
"""
import torch

META = {
    "name": "dcnv2_cross_layer",
    "level": 2,
    "category": "matmul",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 1e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"B": 48, "D": 64},
        "ragged": {"B": 37, "D": 96},
        "large": {"B": 65536, "D": 512},
    },
    "baseline_notes": "20 programs (the A2's AI cores, cube + vector) stride over blocks of 64 rows; per "
                      "block and 64-column slice of W a K loop of tl.dot(x_l tile, W tile^T) on the cube "
                      "with fp32 accumulation (W rows loaded contiguously, transposed on chip), then the "
                      "x0 * (acc + b) + x_l epilogue and an fp16 store; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x0 [B, D], xl [B, D], weight [D, D] (out x in, as CrossNet's kernels), bias [D]."""
    s = META["sizes"][size]
    B, D = s["B"], s["D"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x0 = torch.randn(B, D, generator=g)
    xl = x0 + 0.5 * torch.randn(B, D, generator=g)
    weight = torch.randn(D, D, generator=g) / D ** 0.5
    bias = 0.1 * torch.randn(D, generator=g)
    return tuple(t.to(dt).to(device) for t in (x0, xl, weight, bias))


def reference(x0: torch.Tensor, xl: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    xw = xl.double() @ weight.double().t()
    return (x0.double() * (xw + bias.double()) + xl.double()).to(x0.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    B, D = s["B"], s["D"]
    return {"bytes": 2 * (3 * B * D + D * D + D), "flops": 2 * B * D * D + 3 * B * D}
