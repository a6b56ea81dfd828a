"""HiFi-GAN generator upsampling layer: leaky_relu(x, 0.1) followed by ConvTranspose1d(C_in, C_out, kernel K,
stride S, padding P) with bias, on channels-last bf16 activations [B, T, C_in]; the weight is pre-packed
tap-major [K, C_in, C_out] (from PyTorch's [C_in, C_out, K]). Output [B, (T - 1) * S - 2P + K, C_out]."""
import torch
import torch.nn.functional as F

META = {
    "name": "hifigan_upsample_conv_transpose1d",
    "level": 2,
    "category": "conv",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 2e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"B": 2, "T": 12, "CI": 32, "CO": 32, "K": 16, "S": 8, "P": 4},
        "ragged": {"B": 3, "T": 9, "CI": 48, "CO": 40, "K": 4, "S": 2, "P": 1},
        "large": {"B": 16, "T": 861, "CI": 512, "CO": 256, "K": 16, "S": 8, "P": 4},
    },
    "baseline_notes": "Implicit-GEMM transposed conv grouped by output phase: grid (m block, C_out block, "
                      "batch x phase); the output rows m*S + phase of one program all take the same K/S taps, so "
                      "each program runs K/S x C_in/64 tl.dot steps of 128x64 bf16 input rows (leaky_relu on "
                      "load) against 64x128 weight tiles, fp32 accumulator, bias in the epilogue; 8 warps, "
                      "3 stages.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [B, T, C_in], weight [K, C_in, C_out], bias [C_out] (all bf16), stride and padding."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.randn(s["B"], s["T"], s["CI"], generator=g)
    weight = torch.randn(s["K"], s["CI"], s["CO"], generator=g) * (2.0 / (s["CI"] * s["K"] // s["S"])) ** 0.5
    bias = torch.randn(s["CO"], generator=g) * 0.1
    return x.to(dt).to(device), weight.to(dt).to(device), bias.to(dt).to(device), s["S"], s["P"]


def reference(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, stride: int, padding: int) -> torch.Tensor:
    a = F.leaky_relu(x.double(), 0.1).transpose(1, 2)
    y = F.conv_transpose1d(a, weight.double().permute(1, 2, 0), bias.double(), stride=stride, padding=padding)
    return y.transpose(1, 2).contiguous().to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    t_out = (s["T"] - 1) * s["S"] - 2 * s["P"] + s["K"]
    elems = s["B"] * s["T"] * s["CI"] + s["K"] * s["CI"] * s["CO"] + s["CO"] + s["B"] * t_out * s["CO"]
    return {"bytes": 2 * elems, "flops": 2 * s["B"] * t_out * s["CO"] * s["CI"] * (s["K"] // s["S"])}
