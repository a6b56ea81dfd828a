"""Temporal Shift Module (TSM, mmaction2 TemporalShift.shift): shift 1/8 of the channels one frame back and
1/8 one frame forward in time, zero-filled at the clip ends, on an NCHW activation of N clips x T frames."""
import torch

META = {
    "name": "tsm_temporal_shift",
    "level": 1,
    "category": "data_movement",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"N": 2, "T": 4, "C": 16, "H": 5, "W": 7},
        "ragged": {"N": 1, "T": 3, "C": 24, "H": 9, "W": 11},
        "large": {"N": 8, "T": 8, "C": 256, "H": 56, "W": 56},
    },
    "baseline_notes": "grid (N*T*C, cdiv(H*W, 1024)): each program copies 1024 contiguous pixels of one channel plane "
                      "from the source frame its channel group selects (or writes zeros at the clip ends); 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [N*T, C, H, W] (frames of each clip consecutive) and the number of frames per clip T."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.randn(s["N"] * s["T"], s["C"], s["H"], s["W"], generator=g).to(dt)
    return x.to(device), s["T"]


def reference(x: torch.Tensor, num_segments: int) -> torch.Tensor:
    nt, c, h, w = x.shape
    v = x.view(nt // num_segments, num_segments, c, h * w)
    fold = c // 8
    out = torch.zeros_like(v)
    out[:, :-1, :fold] = v[:, 1:, :fold]
    out[:, 1:, fold:2 * fold] = v[:, :-1, fold:2 * fold]
    out[:, :, 2 * fold:] = v[:, :, 2 * fold:]
    return out.view(nt, c, h, w)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["N"] * s["T"] * s["C"] * s["H"] * s["W"]
    return {"bytes": 2 * 2 * n, "flops": 0}
