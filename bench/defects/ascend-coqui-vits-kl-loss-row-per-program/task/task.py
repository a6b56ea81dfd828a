"""VITS prior/posterior KL loss (Coqui TTS `VitsGeneratorLoss.kl_loss`).

z_p is the posterior latent mapped through the flow, logs_q the posterior log-scale, m_p / logs_p the text prior
expanded to the spectrogram frames by the monotonic alignment; all [B, H, T] (H = 192 hidden channels,
T = spectrogram frames), z_mask [B, 1, T] marks the valid frames:
    kl = logs_p - logs_q - 0.5 + 0.5 * (z_p - m_p)^2 * exp(-2 * logs_p)
    loss = sum(kl * z_mask) / sum(z_mask)
(the denominator counts frames, not frames x channels, as in Coqui). Returns a 0-dim fp32 tensor.
"""
import torch

META = {
    "name": "vits_kl_loss",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 2, "H": 8, "T": 50},
        "ragged": {"B": 3, "H": 6, "T": 77},
        "large": {"B": 32, "H": 192, "T": 1000},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over tiles of 4 channels x the whole frame row "
                      "(BT = next_power_of_2(T)) of one utterance, accumulate kl * mask and the mask count in "
                      "fp32 register tiles across their tiles and write one partial pair each; a one-program "
                      "kernel sums the 40 pairs in a fixed order and divides (deterministic).",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """z_p, logs_q, m_p, logs_p [B, H, T] and z_mask [B, 1, T] (0/1)."""
    s = META["sizes"][size]
    b, h, t = s["B"], s["H"], s["T"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    m_p = torch.randn(b, h, t, generator=g) * 0.5
    logs_p = torch.randn(b, h, t, generator=g) * 0.3 - 0.5
    logs_q = torch.randn(b, h, t, generator=g) * 0.3 - 1.0
    z_p = m_p + torch.randn(b, h, t, generator=g) * torch.exp(logs_p)
    lengths = torch.randint(max(1, t // 3), t + 1, (b,), generator=g)
    lengths[0] = t
    z_mask = (torch.arange(t)[None, :] < lengths[:, None]).float().unsqueeze(1)
    return tuple(v.to(device=device, dtype=dt) for v in (z_p, logs_q, m_p, logs_p, z_mask))


def reference(z_p: torch.Tensor, logs_q: torch.Tensor, m_p: torch.Tensor, logs_p: torch.Tensor,
              z_mask: torch.Tensor) -> torch.Tensor:
    z_p, logs_q, m_p, logs_p, z_mask = (v.double() for v in (z_p, logs_q, m_p, logs_p, z_mask))
    kl = logs_p - logs_q - 0.5
    kl = kl + 0.5 * ((z_p - m_p) ** 2) * torch.exp(-2.0 * logs_p)
    return (torch.sum(kl * z_mask) / torch.sum(z_mask)).to(torch.float32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["H"] * s["T"]
    return {"bytes": 16 * n + 4 * s["B"] * s["T"], "flops": 10 * n}
