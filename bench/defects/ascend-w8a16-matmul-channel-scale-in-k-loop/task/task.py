"""Weight-only int8 linear (W8A16, symmetric per-output-channel scales, as vLLM-Ascend / MindIE run
Llama-class MLP projections): y = x @ (w_q * scale[None, :]), x [M, K] fp16, w_q [K, N] int8,
scale [N] fp32. Output [M, N] fp16."""
import torch

META = {
    "name": "w8a16_linear_per_channel",
    "level": 2,
    "category": "gemm",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 1e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"M": 33, "K": 96, "N": 80},
        "ragged": {"M": 257, "K": 520, "N": 300},
        "large": {"M": 2048, "K": 4096, "N": 11008},
    },
    "baseline_notes": "Persistent tile loop over the cube cores; int8 weight tiles converted to fp16 and fed to "
                      "tl.dot, the per-channel scale applied once to the fp32 accumulator after the K loop.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [M, K] activations; w_q [K, N] int8 and scale [N] fp32 from absmax quantisation of a
    N(0, 0.02) weight."""
    s = META["sizes"][size]
    dt = getattr(torch, dtype or META["dtypes"][0])
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(s["M"], s["K"], generator=g)
    w = 0.02 * torch.randn(s["K"], s["N"], generator=g)
    scale = w.abs().amax(dim=0) / 127.0
    w_q = torch.round(w / scale).clamp(-127, 127).to(torch.int8)
    return x.to(dt).to(device), w_q.to(device), scale.float().to(device)


def reference(x: torch.Tensor, w_q: torch.Tensor, scale: torch.Tensor) -> torch.Tensor:
    return (x.double() @ (w_q.double() * scale.double()[None, :])).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    M, K, N = s["M"], s["K"], s["N"]
    return {"bytes": 2 * M * K + K * N + 4 * N + 2 * M * N, "flops": 2 * M * K * N}
