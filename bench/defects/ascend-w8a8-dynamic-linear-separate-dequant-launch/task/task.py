"""W8A8 dynamic-quant linear (vllm-ascend AscendW8A8DynamicLinearMethod, torch_npu.npu_quant_matmul with
pertoken_scale): int8 activations with one fp32 scale per token, int8 weights with one fp32 scale per output
channel, int32 accumulation, then y = acc * x_scale[m] * w_scale[n] + bias[n] in bfloat16."""
import torch

META = {
    "name": "w8a8_dynamic_quant_linear",
    "level": 2,
    "category": "gemm",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 1e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"M": 40, "K": 160, "N": 72},
        "ragged": {"M": 333, "K": 1280, "N": 410},
        "large": {"M": 9216, "K": 1280, "N": 6840},
    },
    "baseline_notes": "One launch over the 20 cube cores: each program walks its 128x128 output tiles, accumulates "
                      "int8 x int8 -> int32 with tl.dot over 256-wide K steps, then applies the per-token and "
                      "per-channel scales and the bias to the accumulator and stores bfloat16.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x_q int8 [M, K], x_scale fp32 [M], w_q int8 [K, N] (transposed once at weight load, as vllm-ascend
    does), w_scale fp32 [N], bias [N] in the output dtype."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    out_dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.randn(s["M"], s["K"], generator=g)
    x[:, torch.randperm(s["K"], generator=g)[: max(1, s["K"] // 64)]] *= 8.0  # a few outlier channels
    x_scale = x.abs().amax(dim=1).clamp(min=1e-5) / 127.0
    x_q = torch.round(x / x_scale[:, None]).clamp(-128, 127).to(torch.int8)
    w = torch.randn(s["N"], s["K"], generator=g) * 0.02
    w_scale = w.abs().amax(dim=1).clamp(min=1e-8) / 127.0
    w_q = torch.round(w / w_scale[:, None]).clamp(-128, 127).to(torch.int8).t().contiguous()
    bias = (torch.randn(s["N"], generator=g) * 0.1).to(out_dt)
    return (x_q.to(device), x_scale.float().to(device), w_q.to(device), w_scale.float().to(device),
            bias.to(device))


def reference(x_q, x_scale, w_q, w_scale, bias):
    acc = x_q.double() @ w_q.double()
    y = acc * x_scale.double()[:, None] * w_scale.double()[None, :] + bias.double()[None, :]
    return y.to(bias.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    m, k, n = s["M"], s["K"], s["N"]
    return {"bytes": m * k + k * n + 4 * m + 4 * n + 2 * n + 2 * m * n, "flops": 2 * m * n * k}
