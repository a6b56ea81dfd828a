"""HTDemucs branch merge: de-normalise the time branch and add the spectral branch (HTDemucs.forward).

At the end of demucs.htdemucs.HTDemucs.forward the two U-Net branches are merged per source:

    xt = xt.view(B, S, -1, length)
    xt = xt * stdt[:, None] + meant[:, None]     # stdt / meant: per-item std and mean of the input mix
    x = xt + x                                   # x: spectral branch after _mask and _ispec (iSTFT)

Here the model runs in fp16 on the accelerator: xt (time-branch decoder output, normalised) and x
(spectral branch, already in signal units) are fp16 [B, S, C, T]; meant and stdt are the fp32 [B]
statistics of the fp32 input mix. Output: fp16 [B, S, C, T]. Large: a batch of 8 training-length
segments (7.8 s at 44.1 kHz = 343,980 samples) of the 4-source (drums, bass, other, vocals) stereo
model.
"""
import torch

META = {
    "name": "htdemucs_branch_merge",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float16", "bfloat16"],
    "tolerance": {"float16": {"atol": 5e-3, "rtol": 5e-3}, "bfloat16": {"atol": 3e-2, "rtol": 3e-2}},
    "sizes": {
        "small": {"B": 2, "S": 4, "C": 2, "T": 1000},
        "ragged": {"B": 3, "S": 4, "C": 2, "T": 1531},
        "large": {"B": 8, "S": 4, "C": 2, "T": 343980},
    },
    "baseline_notes": "One launch, 40 programs (the A2's vector cores): for each batch item the program "
                      "loads that item's mean and std once and takes a strided share of the item's "
                      "contiguous S*C*T slab in 4096-element blocks; fp16 tiles are widened to fp32 in the "
                      "kernel, xt * std + mean + x computed in fp32 and stored back as fp16. No autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """xt [B, S, C, T] (normalised time-branch output), xs [B, S, C, T] (spectral branch), meant, stdt [B] fp32."""
    s = META["sizes"][size]
    B, S, C, T = s["B"], s["S"], s["C"], s["T"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    xt = 0.6 * torch.randn(B, S, C, T, generator=g)
    xs = 0.1 * torch.randn(B, S, C, T, generator=g)
    meant = 1e-3 * torch.randn(B, generator=g)
    stdt = 0.05 + 0.2 * torch.rand(B, generator=g)
    return (xt.to(device=device, dtype=dt), xs.to(device=device, dtype=dt),
            meant.to(device), stdt.to(device))


def reference(xt: torch.Tensor, xs: torch.Tensor, meant: torch.Tensor, stdt: torch.Tensor) -> torch.Tensor:
    y = xt.double() * stdt.double()[:, None, None, None] + meant.double()[:, None, None, None] + xs.double()
    return y.to(xt.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["S"] * s["C"] * s["T"]
    return {"bytes": 3 * 2 * n + 8 * s["B"], "flops": 3 * n}
