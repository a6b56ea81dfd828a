"""GwcNet group-wise correlation cost volume: cost[b, g, d, h, w] = mean over the C/G channels of group g of
left[b, c, h, w] * right[b, c, h, w - d], zero where w < d (build_gwc_volume)."""
import torch

META = {
    "name": "gwc_cost_volume",
    "level": 2,
    "category": "stencil",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 1, "C": 16, "G": 4, "H": 3, "W": 20, "D": 6},
        "ragged": {"B": 2, "C": 24, "G": 3, "H": 5, "W": 37, "D": 9},
        "large": {"B": 1, "C": 320, "G": 40, "H": 136, "W": 240, "D": 48},
    },
    "baseline_notes": "one launch, grid (B*G, H, W blocks of up to 256): each program loads its group's "
                      "[C/G, BLOCK_W] left tile once and loops over the D disparities, loading the shifted right "
                      "tile (L1/L2 hits) and storing one cost row per disparity; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """left and right feature maps [B, C, H, W] at 1/4 resolution, num_groups, max disparity / 4."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    shape = (s["B"], s["C"], s["H"], s["W"])
    left = torch.relu(torch.randn(shape, generator=g))
    # right view: the left view shifted by a few pixels plus noise, as a rectified stereo pair
    right = torch.roll(left, shifts=-3, dims=3) + 0.1 * torch.randn(shape, generator=g)
    return left.to(dt).to(device), right.to(dt).to(device), s["G"], s["D"]


def reference(left: torch.Tensor, right: torch.Tensor, num_groups: int, max_disp: int) -> torch.Tensor:
    B, C, H, W = left.shape
    lf, rf = left.double(), right.double()
    vol = torch.zeros((B, num_groups, max_disp, H, W), dtype=torch.float64, device=left.device)
    for d in range(max_disp):
        if d >= W:
            break
        prod = lf[..., d:] * rf[..., :W - d]
        vol[:, :, d, :, d:] = prod.view(B, num_groups, C // num_groups, H, W - d).mean(dim=2)
    return vol.to(left.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    feat = s["B"] * s["C"] * s["H"] * s["W"]
    out = s["B"] * s["G"] * s["D"] * s["H"] * s["W"]
    return {"bytes": 4 * (2 * feat + out), "flops": 2 * feat * s["D"]}
