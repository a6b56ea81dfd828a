"""Qwen3-VL vision position embeddings (Qwen3VLVisionModel.fast_pos_embed_interpolate): the learned 48 x 48
grid of position embeddings [2304, C] is bilinearly resampled to the image's h x w patch grid
(torch.linspace(0, 47, h) / (0, 47, w) sample points, floor and clipped ceil corners), repeated over the t
temporal patches and laid out in spatial-merge order (t, h/2, w/2, 2, 2). Output [t*h*w, C] in the table dtype."""
import torch

META = {
    "name": "qwen3vl_pos_embed_interpolate",
    "level": 2,
    "category": "gather",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 1e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"grid_side": 8, "C": 48, "t": 1, "h": 6, "w": 10},
        "ragged": {"grid_side": 12, "C": 72, "t": 2, "h": 14, "w": 22},
        "large": {"grid_side": 48, "C": 1152, "t": 1, "h": 128, "w": 176},
    },
    "baseline_notes": "Grid = 40 vector cores looping over (32-token, 128-channel) tiles of the output in merge "
                      "order: per token the four corner rows of the table and their weights, the corners gathered "
                      "as [32, 128] tiles along the channel axis (contiguous in table and output), fp32 blend, "
                      "one store per tile.",
    "deterministic": True,
}

MERGE = 2


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """pos_embed [grid_side**2, C] (nn.Embedding weight) and the image's (t, h, w) patch grid."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    table = torch.randn(s["grid_side"] ** 2, s["C"], generator=g) * 0.5
    return table.to(dt).to(device), s["t"], s["h"], s["w"]


def reference(pos_embed: torch.Tensor, t: int, h: int, w: int) -> torch.Tensor:
    side = int(round(pos_embed.shape[0] ** 0.5))
    dev = pos_embed.device
    h_idx = torch.linspace(0, side - 1, h, device=dev)
    w_idx = torch.linspace(0, side - 1, w, device=dev)
    h_lo, w_lo = h_idx.int(), w_idx.int()
    h_hi = (h_lo + 1).clip(max=side - 1)
    w_hi = (w_lo + 1).clip(max=side - 1)
    dh = (h_idx - h_lo).double()[:, None]
    dw = (w_idx - w_lo).double()[None, :]
    grid = pos_embed.double().view(side, side, -1)
    out = ((1 - dh) * (1 - dw))[..., None] * grid[h_lo][:, w_lo] \
        + ((1 - dh) * dw)[..., None] * grid[h_lo][:, w_hi] \
        + (dh * (1 - dw))[..., None] * grid[h_hi][:, w_lo] \
        + (dh * dw)[..., None] * grid[h_hi][:, w_hi]
    out = out.reshape(h // MERGE, MERGE, w // MERGE, MERGE, -1).permute(0, 2, 1, 3, 4).reshape(h * w, -1)
    return out.repeat(t, 1).to(pos_embed.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["t"] * s["h"] * s["w"]
    return {"bytes": 2 * s["grid_side"] ** 2 * s["C"] + 2 * n * s["C"], "flops": 7 * n * s["C"]}
