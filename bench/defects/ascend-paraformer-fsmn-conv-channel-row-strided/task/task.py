"""FSMN memory block of FunASR's SANM attention (Paraformer encoder, MultiHeadedAttentionSANM.forward_fsmn):
inputs = v * mask; x = depthwise Conv1d(d_model, kernel 11, groups=d_model, no bias) over time with 5 zero
frames of padding each side; out = (x + inputs) * mask. v is [B, T, d_model] (time-major, as the encoder
holds it); the depthwise weight is kept tap-major [11, d_model] (re-laid out once at load)."""
import torch
import torch.nn.functional as F

KERNEL_SIZE = 11
LEFT_PAD = (KERNEL_SIZE - 1) // 2

META = {
    "name": "sanm_fsmn_memory_block",
    "level": 2,
    "category": "conv",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 4e-3, "rtol": 4e-3}},
    "sizes": {
        "small": {"B": 3, "T": 50, "D": 64},
        "ragged": {"B": 5, "T": 137, "D": 320},
        "large": {"B": 32, "T": 512, "D": 512},
    },
    "baseline_notes": "One launch over the 40 vector cores: each program walks (utterance, 16-frame, 512-channel) "
                      "tiles of the time-major [B, T, D] tensor; per tap it loads the shifted [16, 512] tile "
                      "(contiguous channel rows), the frame mask and the tap's weight row, accumulates in fp32, "
                      "adds the masked residual and stores float16 rows.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """v [B, T, D], frame mask [B, T] (1 for frames inside each utterance's length, 0 after; same dtype as v),
    weight [11, D] (tap-major)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    v = torch.randn(s["B"], s["T"], s["D"], generator=g)
    lengths = torch.randint(s["T"] // 2, s["T"] + 1, (s["B"],), generator=g)
    lengths[0] = s["T"]
    mask = (torch.arange(s["T"])[None, :] < lengths[:, None]).float()
    weight = torch.randn(KERNEL_SIZE, s["D"], generator=g) * (KERNEL_SIZE ** -0.5)
    return v.to(dt).to(device), mask.to(dt).to(device), weight.to(dt).to(device)


def reference(v: torch.Tensor, mask: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    m = mask.float()[:, :, None]
    inputs = v.float() * m
    x = F.pad(inputs.transpose(1, 2), (LEFT_PAD, KERNEL_SIZE - 1 - LEFT_PAD))
    conv_w = weight.float().t().unsqueeze(1)  # [D, 1, 11]
    x = F.conv1d(x, conv_w, groups=v.shape[2]).transpose(1, 2)
    return ((x + inputs) * m).to(v.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["T"] * s["D"]
    return {"bytes": 2 * (2 * n + s["B"] * s["T"] + KERNEL_SIZE * s["D"]), "flops": (2 * KERNEL_SIZE + 3) * n}
