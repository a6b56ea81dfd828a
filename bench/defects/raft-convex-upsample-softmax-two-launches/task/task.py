"""RAFT convex upsampling of a 1/8-resolution flow field (RAFT.upsample_flow): the predicted mask [N, 9*64, H, W]
is viewed as [N, 1, 9, 8, 8, H, W] and soft-maxed over the 9 taps; every full-resolution flow vector is the
softmax-weighted combination of the 3x3 zero-padded neighbourhood of 8 * flow around its coarse pixel, and the
[N, 2, 8, 8, H, W] result is interleaved into [N, 2, 8H, 8W]."""
import torch

FACTOR = 8

META = {
    "name": "raft_convex_upsample",
    "level": 2,
    "category": "fused",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 2, "H": 5, "W": 19},
        "ragged": {"N": 3, "H": 7, "W": 13},
        "large": {"N": 8, "H": 55, "W": 128},
    },
    "baseline_notes": "One kernel on a (32-pixel x block, coarse row, image) grid: for each of the 9 taps a "
                      "[8, 32, 8] tile of mask logits (sub-row, coarse x, sub-column) and the tap's two flow "
                      "neighbours; online softmax over the taps with the two weighted flow sums in registers; "
                      "the tile is stored interleaved into the [N, 2, 8H, 8W] output.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """flow [N, 2, H, W] (coords1 - coords0, in 1/8-resolution pixels) and the update block's up-mask
    [N, 576, H, W] (already scaled by 0.25 as in RAFT)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    flow = torch.randn(s["N"], 2, s["H"], s["W"], generator=g) * 3.0
    mask = torch.randn(s["N"], 9 * FACTOR * FACTOR, s["H"], s["W"], generator=g) * 1.5
    return flow.to(dt).to(device), mask.to(dt).to(device)


def reference(flow: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    N, _, H, W = flow.shape
    m = torch.softmax(mask.double().view(N, 1, 9, FACTOR, FACTOR, H, W), dim=2)
    up = torch.nn.functional.unfold(FACTOR * flow.double(), [3, 3], padding=1)
    up = up.view(N, 2, 9, 1, 1, H, W)
    up = torch.sum(m * up, dim=2)
    up = up.permute(0, 1, 4, 2, 5, 3)
    return up.reshape(N, 2, FACTOR * H, FACTOR * W).to(flow.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    hw = s["N"] * s["H"] * s["W"]
    taps = 9 * FACTOR * FACTOR
    return {"bytes": 4 * (hw * taps + 2 * hw + 2 * hw * FACTOR * FACTOR), "flops": 7 * hw * taps}
