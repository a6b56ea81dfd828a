"""W8A8 dynamic-quant linear (vllm-ascend W8A8 / torch_npu npu_quant_matmul with a per-token
activation scale and a per-channel weight scale): out = (x_q @ w_q) * x_scale[:, None] * w_scale[None, :]
with int8 x_q [M, K], int8 w_q [K, N] (weight stored K-major), fp32 scales; out [M, N] bfloat16."""
import torch

META = {
    "name": "w8a8_dynamic_linear",
    "level": 2,
    "category": "gemm",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 1e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"M": 40, "N": 160, "K": 192},
        "ragged": {"M": 77, "N": 300, "K": 520},
        "large": {"M": 4096, "N": 7392, "K": 8192},
    },
    "baseline_notes": "Grid of 20 programs (one per cube core), each looping over 128 x 256 output tiles; "
                      "int8 x int8 tl.dot with an int32 accumulator over 128-wide K steps, then the per-token "
                      "and per-channel scales in fp32 and one bf16 store.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Activations quantised per token (absmax / 127) from a bf16-like N(0, 1) hidden state, int8
    weights with per-output-channel scales as msModelSlim W8A8 writes them."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(s["M"], s["K"], generator=g)
    x_scale = x.abs().amax(dim=1).clamp(min=1e-5) / 127.0
    x_q = torch.round(x / x_scale[:, None]).clamp(-127, 127).to(torch.int8)
    w_q = torch.randint(-127, 128, (s["K"], s["N"]), generator=g, dtype=torch.int8)
    w_scale = (torch.rand(s["N"], generator=g) * 2e-4 + 1e-4).float()
    return x_q.to(device), w_q.to(device), x_scale.float().to(device), w_scale.to(device)


def reference(x_q: torch.Tensor, w_q: torch.Tensor, x_scale: torch.Tensor, w_scale: torch.Tensor) -> torch.Tensor:
    acc = x_q.double() @ w_q.double()
    return (acc * x_scale.double()[:, None] * w_scale.double()[None, :]).to(torch.bfloat16)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    M, N, K = s["M"], s["N"], s["K"]
    return {"bytes": M * K + K * N + 4 * (M + N) + 2 * M * N, "flops": 2 * M * N * K}
