"""Glow-TTS invertible 1x1 convolution with channel grouping (Coqui TTS `InvConvNear`, forward direction).

The decoder flow of Glow-TTS mixes channels with a learned 4x4 orthogonal-initialised matrix W applied to
groups of 4 channels. Coqui splits the C channels as x.view(b, 2, C/4, 2, t): channel
    c(a, g, h) = a * C/2 + 2 * g + h        (a, h in {0, 1}, g in [0, C/4))
belongs to group g and split k = 2 * a + h. For every group g and frame t
    z[k(a,h), g, t] = sum_j W[k, j] * x[j, g, t]
and z is written back to the same channel mapping and multiplied by the frame mask:
    z[b, c(a,g,h), t] = x_mask[b, 0, t] * sum_{a',h'} W[2a+h, 2a'+h'] * x[b, c(a',g,h'), t]
(Coqui does it with permute(0, 1, 3, 2, 4).contiguous(), F.conv2d with a [4, 4, 1, 1] weight and the inverse
permute). The log-determinant, logdet(W) * C/4 * frames, is scalar host arithmetic and not part of the kernel.
"""
import torch

META = {
    "name": "glow_invconv_near",
    "level": 2,
    "category": "normalizing-flow",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 2, "C": 16, "T": 40},
        "ragged": {"B": 3, "C": 24, "T": 77},
        "large": {"B": 32, "C": 160, "T": 860},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over tiles of 8 groups x 256 frames of one "
                      "utterance; the four split rows of a group are read straight from x [B, C, T] through the "
                      "strides of the view (a, h, g) (row stride 2T, frames contiguous), mixed with the 16 weights "
                      "held in scalars, masked and stored to z [B, C, T] in the same mapping; no host copies.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [B, C, T] decoder activations (mel squeezed by 2), x_mask [B, 1, T] (0/1), weight [4, 4]."""
    s = META["sizes"][size]
    b, c, t = s["B"], s["C"], s["T"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.randn(b, c, t, generator=g)
    lengths = torch.randint(max(1, t // 3), t + 1, (b,), generator=g)
    lengths[0] = t
    x_mask = (torch.arange(t)[None, :] < lengths[:, None]).float().unsqueeze(1)
    w = torch.linalg.qr(torch.randn(4, 4, generator=g))[0]
    if torch.det(w) < 0:
        w[:, 0] = -w[:, 0]
    w = (w + 0.05 * torch.randn(4, 4, generator=g)).contiguous()  # a trained weight drifts from orthogonal
    return x.to(device=device, dtype=dt), x_mask.to(device=device, dtype=dt), w.to(device=device, dtype=dt)


def reference(x: torch.Tensor, x_mask: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    b, c, t = x.shape
    xs = x.double().view(b, 2, c // 4, 2, t).permute(0, 1, 3, 2, 4).reshape(b, 4, c // 4, t)
    z = torch.einsum("kj,bjgt->bkgt", weight.double(), xs)
    z = z.view(b, 2, 2, c // 4, t).permute(0, 1, 3, 2, 4).reshape(b, c, t) * x_mask.double()
    return z.to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["C"] * s["T"]
    return {"bytes": 8 * n + 4 * s["B"] * s["T"] + 64, "flops": 8 * n}
