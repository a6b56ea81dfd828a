"""Coherent beamforming with detection and time integration (MeerKAT FBFUSE CoherentBeamformer, bf_aptf_general_k).

For every frequency channel f, beam b and sample t the antenna voltages of each polarisation are
summed with that beam's complex steering weight (the same weights for both polarisations),

    B[f, b, t, p] = sum_a W[f, b, a] * V[f, t, p, a]            (complex multiply, no conjugate)

and the beam is detected and integrated over both polarisations and TSCRUNCH consecutive samples,

    power[f, b, s] = sum_{p} sum_{t = s*TSCRUNCH}^{(s+1)*TSCRUNCH - 1} |B[f, b, t, p]|^2.

FBFUSE takes 8-bit F-engine voltages in FTPA order and 8-bit weights in FBA order; here both are
integer-valued fp16 planes (real and imaginary parts apart), V [F, T, P, A], W [F, B, A], and the
output is fp32 [F, B, T / TSCRUNCH] (FBFUSE then rescales it to int8).
"""
import torch

TSCRUNCH = 16

META = {
    "name": "coherent_beamform_power",
    "level": 2,
    "category": "radio-astronomy",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 1e-2, "rtol": 1e-4}},
    "sizes": {
        "small": {"F": 2, "T": 32, "P": 2, "A": 8, "B": 16},
        "ragged": {"F": 3, "T": 48, "P": 2, "A": 12, "B": 20},
        "large": {"F": 64, "T": 8192, "P": 2, "A": 64, "B": 512},
    },
    "baseline_notes": "Grid (beam blocks of 64, sample blocks of 64, channels); each program loads its "
                      "[64, A] weight tiles and, per polarisation, the [A, 64] voltage tiles, forms the "
                      "beams with four fp16 tl.dot calls (fp32 accumulate), detects, sums the two "
                      "polarisations and reduces groups of TSCRUNCH samples with a reshape + sum. "
                      "4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Voltages v_re, v_im [F, T, P, A], weights w_re, w_im [F, B, A] (integer-valued), TSCRUNCH (int)."""
    s = META["sizes"][size]
    f, t, p, a, b = s["F"], s["T"], s["P"], s["A"], s["B"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    # 8-bit F-engine voltages: Gaussian noise at ~12 counts rms, clipped to the int8 range
    v_re = torch.clamp(torch.round(12.0 * torch.randn(f, t, p, a, generator=g)), -127, 127)
    v_im = torch.clamp(torch.round(12.0 * torch.randn(f, t, p, a, generator=g)), -127, 127)
    # phase-only steering weights quantised to 8 bits: round(127 * exp(i * phi))
    phi = 2.0 * torch.pi * torch.rand(f, b, a, generator=g)
    w_re = torch.round(127.0 * torch.cos(phi))
    w_im = torch.round(127.0 * torch.sin(phi))
    cast = lambda x: x.to(device=device, dtype=dt)  # noqa: E731
    return cast(v_re), cast(v_im), cast(w_re), cast(w_im), TSCRUNCH


def reference(v_re, v_im, w_re, w_im, tscrunch: int) -> torch.Tensor:
    f, t, p, a = v_re.shape
    n_out = triton_cdiv(t, tscrunch)
    out = torch.empty(f, w_re.shape[1], n_out, dtype=torch.float32, device=v_re.device)
    for ch in range(f):
        v = torch.complex(v_re[ch].double(), v_im[ch].double()).reshape(t * p, a)
        w = torch.complex(w_re[ch].double(), w_im[ch].double())
        beams = w @ v.T  # [B, T * P]
        pw = (beams.real ** 2 + beams.imag ** 2).reshape(-1, t, p).sum(-1)  # [B, T]
        pad = n_out * tscrunch - t
        if pad:
            pw = torch.nn.functional.pad(pw, (0, pad))
        out[ch] = pw.reshape(-1, n_out, tscrunch).sum(-1).float()
    return out


def triton_cdiv(x: int, y: int) -> int:
    return (x + y - 1) // y


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    f, t, p, a, b = s["F"], s["T"], s["P"], s["A"], s["B"]
    return {"bytes": 2 * 2 * f * t * p * a + 2 * 2 * f * b * a + 4 * f * b * t // TSCRUNCH,
            "flops": 8 * f * b * t * p * a}
