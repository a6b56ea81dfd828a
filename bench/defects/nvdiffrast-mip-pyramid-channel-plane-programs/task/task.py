"""Mip-map pyramid of a minibatch of channels-last textures (nvdiffrast's mip stack for dr.texture).

texture [B, H, W, C]: level k+1 averages the 2x2 texel blocks of level k, for as long as both sides
stay even (a power-of-two texture goes down to 1x1). The output is one flat fp32 buffer holding
levels 1..L back to back, each [B, h, w, C] contiguous, as nvdiffrast stores its mip stack.
"""
import torch

META = {
    "name": "mip_pyramid_nhwc",
    "level": 2,
    "category": "pooling",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"B": 1, "H": 16, "W": 32, "C": 4},
        "ragged": {"B": 2, "H": 24, "W": 40, "C": 3},
        "large": {"B": 2, "H": 4096, "W": 4096, "C": 4},
    },
    "baseline_notes": "One launch per mip level, each level read from the previous one in the output buffer: "
                      "grid (output-row blocks of w*C contiguous elements, output rows, textures), 2x2 box "
                      "filter in fp32; no autotune.",
    "deterministic": True,
}


def level_sizes(H: int, W: int) -> list[tuple[int, int]]:
    """(h, w) of mip levels 1..L: halve both sides while both are even."""
    sizes = []
    while H % 2 == 0 and W % 2 == 0:
        H, W = H // 2, W // 2
        sizes.append((H, W))
    return sizes


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """texture [B, H, W, C]: smooth colour gradients plus texel noise, values in [0, 1]."""
    s = META["sizes"][size]
    B, H, W, C = s["B"], s["H"], s["W"], s["C"]
    g = torch.Generator().manual_seed(seed)
    phase = torch.rand(B, 1, 1, C, generator=g) * 6.28
    y = torch.linspace(0, 1, H)[None, :, None, None]
    x = torch.linspace(0, 1, W)[None, None, :, None]
    base = 0.5 + 0.35 * torch.sin(7.0 * x + 3.0 * y + phase) * torch.cos(5.0 * y - 2.0 * x + phase)
    tex = (base + 0.1 * torch.rand(B, H, W, C, generator=g)).clamp(0, 1)
    return (tex.to(getattr(torch, dtype or META["dtypes"][0])).to(device),)


def reference(texture: torch.Tensor) -> torch.Tensor:
    x = texture.double()
    levels = []
    for h, w in level_sizes(x.shape[1], x.shape[2]):
        x = x.reshape(x.shape[0], h, 2, w, 2, x.shape[3]).mean(dim=(2, 4))
        levels.append(x.reshape(-1))
    return torch.cat(levels).to(texture.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n_in = s["B"] * s["H"] * s["W"] * s["C"]
    n_out = sum(s["B"] * h * w * s["C"] for h, w in level_sizes(s["H"], s["W"]))
    return {"bytes": 4 * (n_in + 2 * n_out), "flops": 4 * n_out}
