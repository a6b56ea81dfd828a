"""RAFT all-pairs correlation volume (CorrBlock.corr): corr[b, i, j] = <fmap1[b, :, i], fmap2[b, :, j]> / sqrt(D)
over every pair of 1/8-resolution pixels i, j of two frames; fmaps are [B, D, H*W] fp32 (NCHW, flattened)."""
import torch

META = {
    "name": "raft_all_pairs_correlation",
    "level": 2,
    "category": "gemm",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"B": 1, "D": 32, "H": 6, "W": 10},
        "ragged": {"B": 2, "D": 40, "H": 7, "W": 13},
        "large": {"B": 1, "D": 256, "H": 55, "W": 128},
    },
    "baseline_notes": "Tiles of 64 x 64 output pixels spread over the 20 AI cores (grid = core count, each program "
                      "loops over its tiles); per tile, K-loop over 64 feature channels, both operands loaded "
                      "channel-major (contiguous along pixels), fmap1 tile transposed on chip, tl.dot on the cube "
                      "unit with fp32 accumulation, scaled by 1/sqrt(D) and stored.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """fmap1, fmap2 [B, D, H*W]: instance-normalised encoder features of two frames (fmap2 a shifted copy of
    fmap1 plus noise, as for small motion)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    f1 = torch.randn(s["B"], s["D"], s["H"], s["W"], generator=g)
    f2 = torch.roll(f1, shifts=(1, 2), dims=(2, 3)) + 0.3 * torch.randn(f1.shape, generator=g)
    hw = s["H"] * s["W"]
    return (f1.reshape(s["B"], s["D"], hw).to(dt).to(device), f2.reshape(s["B"], s["D"], hw).to(dt).to(device))


def reference(fmap1: torch.Tensor, fmap2: torch.Tensor) -> torch.Tensor:
    d = fmap1.shape[1]
    corr = torch.matmul(fmap1.double().transpose(1, 2), fmap2.double())
    return (corr / d ** 0.5).to(fmap1.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    hw = s["H"] * s["W"]
    return {"bytes": 4 * (2 * s["B"] * s["D"] * hw + s["B"] * hw * hw), "flops": 2 * s["B"] * hw * hw * s["D"]}
