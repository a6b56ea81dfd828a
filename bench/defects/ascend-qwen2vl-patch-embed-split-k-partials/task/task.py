"""Qwen2-VL / Qwen2.5-VL vision PatchEmbed: Conv3d(3, embed_dim, kernel=stride=(2, 14, 14), bias=False) applied to
the processor's flattened patches [N, 3 * 2 * 14 * 14 = 1176]. Kernel equals stride, so it is one GEMM
x @ W.view(embed_dim, 1176).T (vllm-ascend / MindSpeed-MM run it as a matmul on the NPU). bfloat16 in and out."""
import torch
import torch.nn.functional as F

IN_CHANS, T_PATCH, PATCH = 3, 2, 14
K_PATCH = IN_CHANS * T_PATCH * PATCH * PATCH  # 1176

META = {
    "name": "qwen2vl_patch_embed",
    "level": 2,
    "category": "gemm",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 1e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"M": 100, "N": 96},
        "ragged": {"M": 333, "N": 200},
        "large": {"M": 16384, "N": 1280},
    },
    "baseline_notes": "One launch over the 20 cube cores: each program walks its 128x256 output tiles and runs the "
                      "whole K = 1176 reduction in 128-wide tl.dot steps into one fp32 accumulator (the weight tile "
                      "is read [N, K] row-major and transposed on chip), then stores bfloat16.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """pixel patches [M, 1176] (CLIP-normalised pixels, channel-major inside a patch as the Qwen2-VL processor
    flattens them) and the Conv3d weight [N, 3, 2, 14, 14]."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    mean = torch.tensor([0.4815, 0.4578, 0.4082]).view(1, 3, 1, 1, 1)
    std = torch.tensor([0.2686, 0.2613, 0.2758]).view(1, 3, 1, 1, 1)
    pixels = torch.rand(s["M"], IN_CHANS, T_PATCH, PATCH, PATCH, generator=g)
    x = ((pixels - mean) / std).reshape(s["M"], K_PATCH)
    w = torch.randn(s["N"], IN_CHANS, T_PATCH, PATCH, PATCH, generator=g) * (K_PATCH ** -0.5)
    return x.to(dt).to(device), w.to(dt).to(device)


def reference(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    patches = x.double().view(-1, IN_CHANS, T_PATCH, PATCH, PATCH)
    out = F.conv3d(patches, w.double(), stride=(T_PATCH, PATCH, PATCH))
    return out.view(x.shape[0], w.shape[0]).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    m, n = s["M"], s["N"]
    return {"bytes": 2 * (m * K_PATCH + n * K_PATCH + m * n), "flops": 2 * m * n * K_PATCH}
