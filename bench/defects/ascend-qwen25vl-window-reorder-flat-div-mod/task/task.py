"""Qwen2.5-VL vision window reorder: gather the patch tokens into window order before windowed attention.

The ViT's hidden states [S, C] are grouped into spatial-merge units of 4 tokens (a 2x2 patch
block, S/4 units of 4*C values); the units are reordered so that each window of 4x4 merge units
(112 px) is contiguous (Qwen2_5_VisionTransformerPretrainedModel.forward:
hidden_states.reshape(S // 4, 4, -1)[window_index].reshape(S, -1)). window_index comes from
get_window_index(grid_thw): windows padded at the right/bottom image edges, padding dropped.
"""
import torch

META = {
    "name": "qwen25vl_window_reorder",
    "level": 2,
    "category": "layout",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        # grid_thw per image (t, h, w in patches) and the ViT width C
        "small": {"grid_thw": [(1, 8, 12), (1, 4, 6)], "C": 64},
        "ragged": {"grid_thw": [(1, 10, 14), (2, 6, 6)], "C": 96},
        "large": {"grid_thw": [(1, 92, 68)] * 4, "C": 1280},
    },
    "baseline_notes": "40 programs (the vector cores) stride over the output merge units; per unit one scalar "
                      "window_index load and a contiguous copy of the unit's 4*C values in 4096-wide chunks.",
    "deterministic": True,
}
MERGE = 2          # spatial_merge_size
WINDOW = 4         # window_size 112 // spatial_merge_size // patch_size 14, in merge units


def window_index(grid_thw) -> torch.Tensor:
    """get_window_index of Qwen2.5-VL (merge-unit order of every window, image after image)."""
    out, base = [], 0
    for t, h, w in grid_thw:
        lh, lw = h // MERGE, w // MERGE
        index = torch.arange(t * lh * lw).reshape(t, lh, lw)
        pad_h, pad_w = WINDOW - lh % WINDOW, WINDOW - lw % WINDOW
        nh, nw = (lh + pad_h) // WINDOW, (lw + pad_w) // WINDOW
        padded = torch.nn.functional.pad(index, (0, pad_w, 0, pad_h), "constant", -100)
        padded = padded.reshape(t, nh, WINDOW, nw, WINDOW).permute(0, 1, 3, 2, 4).reshape(-1)
        out.append(padded[padded != -100] + base)
        base += t * lh * lw
    return torch.cat(out)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """hidden [S, C] (patch-embedded tokens, merge-unit order), window_index [S/4] int32."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    S = sum(t * h * w for t, h, w in s["grid_thw"])
    hidden = torch.randn(S, s["C"], generator=g).to(dt)
    return hidden.to(device), window_index(s["grid_thw"]).to(torch.int32).to(device)


def reference(hidden: torch.Tensor, window_index: torch.Tensor) -> torch.Tensor:
    S, C = hidden.shape
    unit = MERGE * MERGE
    return hidden.reshape(S // unit, unit, C)[window_index.long()].reshape(S, C)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    S = sum(t * h * w for t, h, w in s["grid_thw"])
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": 2 * S * s["C"] * item + 4 * (S // 4), "flops": 0}
